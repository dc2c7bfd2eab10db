// Column helpers shared by the migrations so one migration file runs on SQLite and PostgreSQL.
// Conventions: timestamps are ISO 8601 UTC strings in SQLite and timestamptz in PostgreSQL (read
// back as the same ISO strings, see db/index.ts); booleans are integers 0/1 in both; JSON is text.
import { PostgresAdapter, type ColumnDataType, type CreateTableBuilder, type Kysely } from 'kysely';

export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** The column type for a point in time. */
export function timestampType(db: Kysely<any>): ColumnDataType {
  return isPostgres(db) ? 'timestamptz' : 'text';
}

/** Adds an auto-generated integer primary key named id. */
export function withSerialId<T extends string>(
  db: Kysely<any>,
  table: CreateTableBuilder<T, never>,
): CreateTableBuilder<T, 'id'> {
  return isPostgres(db)
    ? table.addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}
