// Reads the environment, migrates, serves; closes gracefully on SIGTERM/SIGINT.
// First, before any other module runs: the nextTick entries' shape kept (tick-shape.ts).
import './tick-shape.js';
import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { createDatabase, describeDatabase, type DatabaseHandle } from './db/index.js';
import { loadEnvFile } from './env-file.js';
import { migrateToLatest } from './db/migrate.js';
import { startWalCheckpointer, type WalCheckpointer } from './db/checkpointer.js';
import { ProviderConfigError } from './modules/assistant/providers/index.js';
import { WelcomeConfigError } from './modules/assistant/welcome.js';

/** Ends start-up with one line on stderr naming what is wrong, exit status 1. */
function fail(line: string): never {
  process.stderr.write(`${line}\n`);
  process.exit(1);
}

const firstLine = (error: unknown) => (error instanceof Error ? error.message : String(error)).split('\n')[0];

async function start(): Promise<void> {
  let config: Config;
  try {
    loadEnvFile();
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) fail(`configuration error: ${error.message}`);
    throw error;
  }
  if (config.LOG_FORMAT === 'pretty') {
    try {
      import.meta.resolve('pino-pretty');
    } catch {
      fail(
        'configuration error: LOG_FORMAT=pretty needs pino-pretty, a dev dependency (npm install); use LOG_FORMAT=json in production',
      );
    }
  }
  const dataDirKind = fs.statSync(config.DATA_DIR, { throwIfNoEntry: false });
  if (dataDirKind && !dataDirKind.isDirectory())
    fail(`configuration error: DATA_DIR ${config.DATA_DIR} is not a directory`);

  let database: DatabaseHandle;
  let applied: string[];
  try {
    database = createDatabase(config);
  } catch (error) {
    fail(`cannot open the database: ${firstLine(error)}`);
  }
  try {
    applied = await migrateToLatest(database.db);
  } catch (error) {
    await database.close().catch(() => {});
    fail(`cannot prepare the database: ${firstLine(error)}`);
  }

  let app: FastifyInstance;
  try {
    app = await buildApp({ config, database });
  } catch (error) {
    await database.close().catch(() => {});
    fail(isConfigProblem(error) ? `configuration error: ${firstLine(error)}` : `cannot start: ${firstLine(error)}`);
  }
  // The database closes after the app: its background workers (mail outbox, geo watcher) stop first.
  let checkpointer: WalCheckpointer | undefined;
  const closeAll = async () => {
    try {
      await app.close();
    } finally {
      await checkpointer?.stop();
      await database.close();
    }
  };

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: no new connections, finishing in-flight requests');
    const timer = setTimeout(() => {
      app.log.error('shutdown took too long; exiting');
      process.exit(1);
    }, config.SHUTDOWN_TIMEOUT_MS);
    timer.unref();
    // Fastify closes the connections that are idle when the close begins. One still answering
    // then (a file download streaming out) turns idle when its answer ends and would be kept
    // alive until the client let go or the keep-alive timeout passed: the shutdown timeout, exit 1.
    // Closing the idle ones again every 50 ms lets in-flight answers finish and nothing linger.
    const sweep = setInterval(() => app.server.closeIdleConnections(), 50);
    sweep.unref();
    closeAll().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'error while shutting down');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));

  // Start-up work (loading the bundled geographic data, the knowledge base) runs before the
  // port opens, so a failure here is either that or the port itself.
  try {
    await app.ready();
  } catch (error) {
    await closeAll().catch(() => {});
    fail(isConfigProblem(error) ? `configuration error: ${firstLine(error)}` : `cannot start: ${firstLine(error)}`);
  }
  try {
    const address = await app.listen({ port: config.PORT, host: config.HOST });
    const where = describeDatabase(config, database.sqliteFile);
    app.log.info(
      {
        dialect: database.dialect,
        database: where,
        dataDir: config.DATA_DIR,
        attachments: config.STORAGE_URL ?? 'disk',
        migrationsApplied: applied.length,
        address,
      },
      `serving ${address} on ${database.dialect} (${where}), data in ` +
        `${config.DATA_DIR}${config.STORAGE_URL ? `, attachments in ${config.STORAGE_URL}` : ''}, ` +
        `${applied.length} migrations applied now`,
    );
  } catch (error) {
    await closeAll().catch(() => {});
    fail(`cannot listen on ${config.HOST}:${config.PORT}: ${firstLine(error)}`);
  }
  checkpointer = await checkpointInWorker(app, config, database);
}

/** SQLite: the WAL checkpointed by a worker thread, started once the port is open; without it, as SQLite does. */
async function checkpointInWorker(
  app: FastifyInstance,
  config: Config,
  database: DatabaseHandle,
): Promise<WalCheckpointer | undefined> {
  if (!database.sqliteFile || !database.pragma || config.SQLITE_CHECKPOINT_MS === 0) return undefined;
  try {
    const checkpointer = await startWalCheckpointer({
      file: database.sqliteFile,
      pragma: database.pragma,
      intervalMs: config.SQLITE_CHECKPOINT_MS,
      onFailure: (error) =>
        app.log.warn({ err: error }, 'sqlite: the checkpoint worker failed; commits checkpoint the WAL again'),
    });
    app.log.info({ intervalMs: config.SQLITE_CHECKPOINT_MS }, 'sqlite: the WAL is checkpointed by a worker thread');
    return checkpointer;
  } catch (error) {
    app.log.warn({ err: error }, 'sqlite: no checkpoint worker; commits checkpoint the WAL');
    return undefined;
  }
}

function isConfigProblem(error: unknown): boolean {
  return error instanceof ProviderConfigError || error instanceof WelcomeConfigError;
}

await start();
