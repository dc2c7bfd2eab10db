import fs from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Migrator, sql, type Kysely, type Migration, type MigrationProvider, type MigrationResultSet } from 'kysely';
import { migrationsDir } from '../paths.js';
import { isPostgres } from './schema-helpers.js';

const MIGRATION_FILE = /^\d{12}_[a-z0-9_]+\.(ts|js)$/;

/** Loads every YYYYMMDDHHMM_name.(ts|js) file from db/migrations, in source and in the build alike. */
class FolderMigrationProvider implements MigrationProvider {
  constructor(private readonly folder: string) {}

  async getMigrations(): Promise<Record<string, Migration>> {
    const migrations: Record<string, Migration> = {};
    for (const file of (await fs.readdir(this.folder)).sort()) {
      if (!MIGRATION_FILE.test(file) || file.endsWith('.d.ts')) continue;
      const module = (await import(pathToFileURL(path.join(this.folder, file)).href)) as Migration;
      migrations[file.replace(/\.(ts|js)$/, '')] = { up: module.up, down: module.down };
    }
    return migrations;
  }
}

export function migrator(db: Kysely<any>, migrationTableSchema?: string): Migrator {
  return new Migrator({
    db,
    provider: new FolderMigrationProvider(migrationsDir),
    ...(migrationTableSchema ? { migrationTableSchema } : {}),
  });
}

/**
 * PostgreSQL: the schema the migration tables belong to (the first of search_path). Without it
 * Kysely takes a kysely_migration table of any other schema in the database for its own.
 */
async function currentSchema(db: Kysely<any>): Promise<string | undefined> {
  if (!isPostgres(db)) return undefined;
  const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db);
  return rows[0]?.schema ?? undefined;
}

export class MigrationFailed extends Error {
  override name = 'MigrationFailed';
}

function appliedOrThrow({ error, results }: MigrationResultSet): string[] {
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new MigrationFailed(`migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** How long a process starting on SQLite waits for another one's migrations (busy_timeout). */
const SQLITE_MIGRATION_WAIT_MS = 60_000;

/**
 * Applies every pending migration; returns the names applied. PostgreSQL: Kysely holds an
 * advisory lock and a transaction. SQLite: Kysely takes no lock and runs the DDL outside a
 * transaction, so two processes starting on one new file would both apply everything (the second
 * fails: table already exists). There the whole run is one write transaction (BEGIN IMMEDIATE):
 * a second process waits for it, then finds nothing left to do; a failure leaves nothing behind.
 */
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  if (isPostgres(db)) {
    return db.connection().execute(async (conn) => {
      // DATABASE_STATEMENT_TIMEOUT_MS bounds requests; a migration building an index on a large
      // table may rightly take minutes, so its connection runs without it, from its first read on.
      await sql`set statement_timeout = 0`.execute(conn);
      try {
        return appliedOrThrow(await migrator(conn, await currentSchema(conn)).migrateToLatest());
      } finally {
        await sql`reset statement_timeout`.execute(conn);
      }
    });
  }
  return db.connection().execute(async (conn) => {
    const { rows } = await sql<{ timeout: number }>`pragma busy_timeout`.execute(conn);
    await sql.raw(`pragma busy_timeout = ${SQLITE_MIGRATION_WAIT_MS}`).execute(conn);
    try {
      await sql`begin immediate`.execute(conn);
      let outcome: MigrationResultSet;
      try {
        outcome = await migrator(conn).migrateToLatest();
      } catch (error) {
        await sql`rollback`.execute(conn);
        throw error;
      }
      await sql.raw(outcome.error ? 'rollback' : 'commit').execute(conn);
      return appliedOrThrow(outcome);
    } finally {
      await sql.raw(`pragma busy_timeout = ${Number(rows[0]?.timeout ?? 5000)}`).execute(conn);
    }
  });
}

/** Names of the migrations this build knows that the database has not applied (readiness check). */
export async function pendingMigrations(db: Kysely<any>): Promise<string[]> {
  const migrations = await migrator(db, await currentSchema(db)).getMigrations();
  return migrations.filter((m) => !m.executedAt).map((m) => m.name);
}
