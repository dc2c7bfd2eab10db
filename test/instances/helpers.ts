// Several server processes on one database: a PostgreSQL schema of their own (whatever TEST_DB
// says, this suite is about PostgreSQL + Redis), or a SQLite file, plus one DATA_DIR they share.
import { scratchDatabase, type ScratchDatabase } from '../../harness/database.js';
import { launchServer, type ServerProcess } from '../../harness/server.js';

export const pgUrl = process.env.TEST_DATABASE_URL;
export const redisUrl = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';

/** Outside CI a missing TEST_DATABASE_URL skips the suite with this reason; in CI it is an error. */
export const skipReason = pgUrl
  ? undefined
  : 'several instances need PostgreSQL: set TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test)';
const inCi = Boolean(process.env.CI) && process.env.CI !== 'false';
if (skipReason && inCi) throw new Error(`CI: ${skipReason}`);
if (skipReason) process.stderr.write(`test/instances: PostgreSQL cases skipped: ${skipReason}\n`);

export type SharedDatabase = ScratchDatabase;

/**
 * The servers of this suite run with the production rate limit (RATE_LIMIT_PER_MINUTE unset), so
 * its counters are shared through Redis as in production; the launcher's own default is no limit.
 */
const PRODUCTION_LIMITS = { RATE_LIMIT_PER_MINUTE: '' };

/** A new PostgreSQL schema (migrated unless `migrate: false`) and a DATA_DIR, shared by the processes. */
export async function sharedPostgres(options: { migrate?: boolean } = {}): Promise<SharedDatabase> {
  const shared = await scratchDatabase({
    dialect: 'postgres',
    url: pgUrl,
    migrate: options.migrate,
    config: { DATABASE_POOL_SIZE: 4 },
    label: 'instances',
  });
  Object.assign(shared.env, PRODUCTION_LIMITS, { DATABASE_POOL_SIZE: '4' });
  return shared;
}

/** An empty SQLite file in a new DATA_DIR (not migrated: the processes do it). */
export async function sharedSqlite(): Promise<SharedDatabase> {
  const shared = await scratchDatabase({ dialect: 'sqlite', migrate: false, label: 'instances' });
  Object.assign(shared.env, PRODUCTION_LIMITS);
  return shared;
}

/**
 * Starts several servers at once. When one fails the others are stopped before the error is
 * thrown, as the caller never gets hold of them.
 */
export async function startTogether(envs: Array<Record<string, string>>): Promise<ServerProcess[]> {
  const results = await Promise.allSettled(envs.map((env) => launchServer({ env })));
  const started = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) {
    await stopAll(started);
    throw failed.reason;
  }
  return started;
}

/** Stops the processes (SIGTERM, SIGKILL when one is still there after 10 s) and waits for them. */
export async function stopAll(servers: Array<ServerProcess | undefined>): Promise<void> {
  await Promise.all(servers.map((server) => server?.stop(10_000)));
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
