// A throwaway database with its own DATA_DIR: a SQLite file in a new temporary folder, or a new
// schema in a PostgreSQL database (so many of them share one server without seeing each other).
// This process gets a handle on it; `env` points a child process (a server, the CLI) at the same
// database; destroy() drops the schema and removes the folder.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { configWith, type Config } from '../src/config.js';
import { createDatabase, type DatabaseHandle } from '../src/db/index.js';
import { migrateToLatest } from '../src/db/migrate.js';
import type { Database } from '../src/db/schema.js';

export interface ScratchDatabase {
  handle: DatabaseHandle;
  db: Kysely<Database>;
  /** The configuration of this process's handle. */
  config: Config;
  dataDir: string;
  /** The PostgreSQL schema (absent on SQLite). */
  schema?: string;
  /** Environment for a child process (server, CLI) on this same database and DATA_DIR. */
  env: Record<string, string>;
  /** Closes the handle, drops the schema (PostgreSQL) and removes DATA_DIR. */
  destroy(): Promise<void>;
}

export interface ScratchOptions {
  dialect: 'sqlite' | 'postgres';
  /** The PostgreSQL database the schema is made in (required for 'postgres'). */
  url?: string;
  /** Applies the migrations (the default); false leaves it empty for the processes to migrate. */
  migrate?: boolean;
  /** Settings for this process's handle (DATABASE_POOL_SIZE, ...). */
  config?: Partial<Config>;
  /** Starts the folder's and the schema's names (`platform-<label>-`, `<label>_`). */
  label?: string;
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

export async function scratchDatabase(options: ScratchOptions): Promise<ScratchDatabase> {
  const label = options.label ?? 'scratch';
  const url = options.url;
  if (options.dialect === 'postgres' && !url) throw new Error('a PostgreSQL scratch database needs the server URL');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `platform-${label}-`));
  const schema = options.dialect === 'postgres' ? `${label}_${randomBytes(6).toString('hex')}` : undefined;
  if (schema) await withAdminClient(url!, (c) => c.query(`create schema ${schema}`));
  const config = schema
    ? configWith({ DATA_DIR: dataDir, DATABASE_URL: url, ...options.config })
    : configWith({ DATA_DIR: dataDir, ...options.config, DATABASE_URL: undefined });
  const handle = createDatabase(config, schema ? { pgSchema: schema } : {});
  if (options.migrate !== false) await migrateToLatest(handle.db);
  return {
    handle,
    db: handle.db,
    config,
    dataDir,
    schema,
    env: {
      DATA_DIR: dataDir,
      ...(schema ? { DATABASE_URL: url!, PGOPTIONS: `-c search_path=${schema}` } : { DATABASE_URL: '' }),
    },
    async destroy() {
      await handle.close();
      if (schema) await withAdminClient(url!, (c) => c.query(`drop schema if exists ${schema} cascade`));
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
