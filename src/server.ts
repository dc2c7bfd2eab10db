// Reads the environment, migrates, serves; closes gracefully on SIGTERM/SIGINT.
import { buildApp } from './app.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { createDatabase } from './db/index.js';
import { migrateToLatest } from './db/migrate.js';

async function start(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`configuration error: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }

  const database = createDatabase(config);
  try {
    await migrateToLatest(database.db);
  } catch (error) {
    process.stderr.write(`cannot prepare the database: ${(error as Error).message.split('\n')[0]}\n`);
    await database.close().catch(() => {});
    process.exit(1);
  }

  const app = await buildApp({ config, database });
  app.addHook('onClose', () => database.close());

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
    app.close().then(
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
    app.log.error({ err: error }, 'start-up failed');
    process.stderr.write(`cannot start: ${(error as Error).message.split('\n')[0]}\n`);
    await app.close().catch(() => {});
    process.exit(1);
  }
  try {
    await app.listen({ port: config.PORT, host: config.HOST });
  } catch (error) {
    process.stderr.write(`cannot listen on ${config.HOST}:${config.PORT}: ${(error as Error).message.split('\n')[0]}\n`);
    await app.close();
    process.exit(1);
  }
}

await start();
