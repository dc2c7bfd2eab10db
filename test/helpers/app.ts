// buildTestApp(): a fresh app on a fresh database for one test file. SQLite by default (a new file
// in a temporary folder); PostgreSQL when TEST_DB=postgres (a new schema in TEST_DATABASE_URL).
import type { FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { scratchDatabase, type ScratchDatabase } from '../../harness/database.js';
import { userWithToken, type TestUser, type UserOptions } from '../../harness/users.js';
import { buildApp } from '../../src/app.js';
import type { Config } from '../../src/config.js';
import type { Database } from '../../src/db/schema.js';
import { enforceContract } from './contract.js';

export const testDialect: 'sqlite' | 'postgres' = process.env.TEST_DB === 'postgres' ? 'postgres' : 'sqlite';

/** A scratch database of the dialect under test (harness/database.ts). */
export type TestDatabase = ScratchDatabase;

/** A migrated, empty database of the dialect under test, with its own DATA_DIR. */
export async function createTestDatabase(overrides: Partial<Config> = {}): Promise<TestDatabase> {
  const url = process.env.TEST_DATABASE_URL;
  if (testDialect === 'postgres' && !url)
    throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL, e.g. postgres://postgres@127.0.0.1:5432/test');
  return scratchDatabase({
    dialect: testDialect,
    url,
    config: testDialect === 'postgres' ? { DATABASE_POOL_SIZE: 4, ...overrides } : overrides,
    label: 'test',
  });
}

export interface TestApp {
  app: FastifyInstance;
  db: Kysely<Database>;
  config: Config;
  dataDir: string;
  /** Environment for a child process (CLI, server) on this same database. */
  env: Record<string, string>;
  /** A user (admin with { admin: true }) and a valid token for them. */
  makeUser(options?: UserOptions): Promise<TestUser>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  config?: Partial<Config>;
  loadGeoData?: boolean;
  startWorkers?: boolean;
  /** Extra routes for the test only (registered at the root, before the app is ready). */
  routes?: (app: FastifyInstance) => Promise<void> | void;
}

export async function buildTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const database = await createTestDatabase({ LOG_LEVEL: 'silent', RATE_LIMIT_PER_MINUTE: 0, ...options.config });
  const app = await buildApp({
    config: database.config,
    database: database.handle,
    logger: false,
    loadGeoData: options.loadGeoData ?? false,
    startWorkers: options.startWorkers ?? false,
  });
  // Routes a test adds for itself are fixtures, not the service's: the contract does not cover them.
  const fixtures: string[] = [];
  app.addHook('onRoute', (route) => void fixtures.push(route.url));
  if (options.routes) await options.routes(app);
  await app.ready();
  // Every answer a test receives through app.inject is checked against the OpenAPI document.
  await enforceContract(app, fixtures);
  return {
    app,
    db: database.db,
    config: database.config,
    dataDir: database.dataDir,
    env: database.env,
    makeUser: (userOptions) => userWithToken(database.db, userOptions),
    async close() {
      await app.close();
      await database.destroy();
    },
  };
}

/** How many rows the table has now. */
export async function rowCount(t: Pick<TestApp, 'db'>, table: string): Promise<number> {
  const result = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)}`.execute(t.db);
  return Number(result.rows[0]!.n);
}
