// buildTestApp(): a fresh app on a fresh database for one test file. SQLite by default (a new file
// in a temporary folder); PostgreSQL when TEST_DB=postgres (a new schema in TEST_DATABASE_URL).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { buildApp } from '../../src/app.js';
import { configWith, type Config } from '../../src/config.js';
import { createDatabase, type DatabaseHandle } from '../../src/db/index.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import type { Database } from '../../src/db/schema.js';
import { enforceContract } from './contract.js';
import { makeUser, makeToken, type TestUser } from './factories.js';

export const testDialect: 'sqlite' | 'postgres' = process.env.TEST_DB === 'postgres' ? 'postgres' : 'sqlite';

export interface TestDatabase {
  handle: DatabaseHandle;
  db: Kysely<Database>;
  config: Config;
  dataDir: string;
  /** Environment for a child process (CLI, server) that should use this same database. */
  env: Record<string, string>;
  /** Drops the schema (PostgreSQL) or removes the files (SQLite). */
  destroy(): Promise<void>;
}

/** Runs fn on a one-off PostgreSQL connection (schema creation and removal). */
export async function withAdminClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** A migrated, empty database of the dialect under test, with its own DATA_DIR. */
export async function createTestDatabase(overrides: Partial<Config> = {}): Promise<TestDatabase> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'platform-test-'));
  let schema: string | undefined;
  let config: Config;
  if (testDialect === 'postgres') {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL, e.g. postgres://postgres@127.0.0.1:5432/test');
    schema = `t_${randomBytes(6).toString('hex')}`;
    await withAdminClient(url, (c) => c.query(`create schema ${schema}`));
    config = configWith({ DATA_DIR: dataDir, DATABASE_URL: url, DATABASE_POOL_SIZE: 4, ...overrides });
  } else {
    config = configWith({ DATA_DIR: dataDir, ...overrides, DATABASE_URL: undefined });
  }
  const handle = createDatabase(config, schema ? { pgSchema: schema } : {});
  await migrateToLatest(handle.db);
  return {
    handle,
    db: handle.db,
    config,
    dataDir,
    env: {
      DATA_DIR: dataDir,
      ...(schema
        ? { DATABASE_URL: config.DATABASE_URL!, PGOPTIONS: `-c search_path=${schema}` }
        : { DATABASE_URL: '' }),
    },
    async destroy() {
      await handle.close();
      if (schema)
        await withAdminClient(config.DATABASE_URL!, (c) => c.query(`drop schema if exists ${schema} cascade`));
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface TestApp {
  app: FastifyInstance;
  db: Kysely<Database>;
  config: Config;
  dataDir: string;
  /** Environment for a child process (CLI, server) on this same database. */
  env: Record<string, string>;
  /** A user (admin with { admin: true }) and a valid token for them. */
  makeUser(options?: Parameters<typeof makeUser>[1]): Promise<TestUser>;
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
    async makeUser(userOptions) {
      const user = await makeUser(database.db, userOptions);
      const token = await makeToken(database.db, user.id);
      return { ...user, token, auth: { authorization: `Bearer ${token}` } };
    },
    async close() {
      await app.close();
      await database.destroy();
    },
  };
}
