// Several server processes on one database: a PostgreSQL schema of their own (whatever TEST_DB
// says, this suite is about PostgreSQL + Redis), or a SQLite file, plus one DATA_DIR they share.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { configWith } from '../../src/config.js';
import { createDatabase, type DatabaseHandle } from '../../src/db/index.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { withAdminClient } from '../helpers/app.js';
import { makeToken, makeUser, type TestUser } from '../helpers/factories.js';
import { killTree, startServer, type ServerProcess } from '../helpers/process.js';

export const pgUrl = process.env.TEST_DATABASE_URL;
export const redisUrl = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';

/** Outside CI a missing TEST_DATABASE_URL skips the suite with this reason; in CI it is an error. */
export const skipReason = pgUrl
  ? undefined
  : 'several instances need PostgreSQL: set TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test)';
const inCi = Boolean(process.env.CI) && process.env.CI !== 'false';
if (skipReason && inCi) throw new Error(`CI: ${skipReason}`);
if (skipReason) process.stderr.write(`test/instances: PostgreSQL cases skipped: ${skipReason}\n`);

export interface SharedDatabase {
  handle: DatabaseHandle;
  dataDir: string;
  schema?: string;
  /** Environment for every server process: the same database and DATA_DIR. */
  env: Record<string, string>;
  destroy(): Promise<void>;
}

/** A new PostgreSQL schema (migrated unless `migrate: false`) and a DATA_DIR, shared by the processes. */
export async function sharedPostgres(options: { migrate?: boolean } = {}): Promise<SharedDatabase> {
  const url = pgUrl!;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'platform-instances-'));
  const schema = `inst_${randomBytes(6).toString('hex')}`;
  await withAdminClient(url, (c) => c.query(`create schema ${schema}`));
  const handle = createDatabase(configWith({ DATA_DIR: dataDir, DATABASE_URL: url, DATABASE_POOL_SIZE: 4 }), {
    pgSchema: schema,
  });
  if (options.migrate !== false) await migrateToLatest(handle.db);
  return {
    handle,
    dataDir,
    schema,
    env: { DATA_DIR: dataDir, DATABASE_URL: url, PGOPTIONS: `-c search_path=${schema}`, DATABASE_POOL_SIZE: '4' },
    async destroy() {
      await handle.close();
      await withAdminClient(url, (c) => c.query(`drop schema if exists ${schema} cascade`));
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** An empty SQLite file in a new DATA_DIR (not migrated: the processes do it). */
export function sharedSqlite(): SharedDatabase {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'platform-instances-'));
  const handle = createDatabase(configWith({ DATA_DIR: dataDir, DATABASE_URL: undefined }));
  return {
    handle,
    dataDir,
    env: { DATA_DIR: dataDir, DATABASE_URL: '' },
    async destroy() {
      await handle.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A port the system just handed out and took back (random high port as a fallback). */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(20_000 + Math.floor(Math.random() * 40_000)));
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** startServer on a free port, trying another port when the chosen one was taken meanwhile. */
export async function startOnFreePort(env: Record<string, string>): Promise<ServerProcess> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    try {
      const server = await startServer(env, port, 90_000);
      if (server.child.exitCode !== null) throw new Error(`server exited: ${server.output().slice(-500)}`);
      return server;
    } catch (error) {
      if (attempt < 3 && String(error).includes('EADDRINUSE')) continue;
      throw error;
    }
  }
}

/**
 * Starts several servers at once. When one fails the others are stopped before the error is
 * thrown, as the caller never gets hold of them.
 */
export async function startTogether(envs: Array<Record<string, string>>): Promise<ServerProcess[]> {
  const results = await Promise.allSettled(envs.map((env) => startOnFreePort(env)));
  const started = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) {
    await stopAll(started);
    throw failed.reason;
  }
  return started;
}

/** Kills the processes (SIGKILL to the whole tree if SIGTERM is not enough within 10 s) and waits for them. */
export async function stopAll(servers: Array<ServerProcess | undefined>): Promise<void> {
  await Promise.all(
    servers.map(async (server) => {
      if (!server || server.child.exitCode !== null || server.child.signalCode !== null) return;
      server.child.kill('SIGTERM');
      const timer = setTimeout(() => killTree(server.child.pid!), 10_000);
      await server.exited;
      clearTimeout(timer);
    }),
  );
}

export async function userWithToken(handle: DatabaseHandle, options: { admin?: boolean } = {}): Promise<TestUser> {
  const user = await makeUser(handle.db, options);
  const token = await makeToken(handle.db, user.id);
  return { ...user, token, auth: { authorization: `Bearer ${token}` } };
}

export interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

/** fetch that reads the body as JSON when it is JSON, else as text. */
export async function call(url: string, init: RequestInit & { json?: unknown } = {}): Promise<Answer> {
  const headers = new Headers(init.headers);
  let body = init.body;
  if (init.json !== undefined) {
    headers.set('content-type', 'application/json');
    body = JSON.stringify(init.json);
  }
  const res = await fetch(url, { ...init, headers, body });
  const text = await res.text();
  const isJson = (res.headers.get('content-type') ?? '').includes('json');
  return { status: res.status, headers: res.headers, body: isJson && text ? JSON.parse(text) : text };
}
