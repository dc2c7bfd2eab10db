// SQL of the geographic area. Tables are chosen at run time from the level list, so queries go
// through an untyped view of the database; callers get plain rows back.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { GeoTableName } from './tables.js';

type Db = Kysely<Database>;
// biome-ignore lint/suspicious/noExplicitAny: the table is chosen at run time from the level list
type UntypedDb = Kysely<any>;
export type GeoRow = Record<string, string | number | null>;

// SQLite allows 32766 bind parameters per statement (since 3.32); PostgreSQL 65535.
const PARAMETER_LIMIT = { sqlite: 32_766, postgres: 65_535 } as const;
const MAX_ROWS_PER_INSERT = 10_000;

/** How many rows of `columnCount` columns go into one insert statement. */
export function rowsPerInsert(dialect: 'sqlite' | 'postgres', columnCount: number): number {
  // PostgreSQL binds one array per column, so the parameter limit does not bound the rows.
  if (dialect === 'postgres') return MAX_ROWS_PER_INSERT;
  return Math.min(MAX_ROWS_PER_INSERT, Math.floor(PARAMETER_LIMIT.sqlite / columnCount));
}

export async function countRows(db: Db, table: GeoTableName): Promise<number> {
  const row = await (db as UntypedDb)
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function allIds(db: Db, table: GeoTableName): Promise<Set<number>> {
  const rows = await (db as UntypedDb).selectFrom(table).select('id').execute();
  return new Set(rows.map((r) => Number(r.id)));
}

export type ColumnType = 'integer' | 'text';

/**
 * Inserts rows, or updates every column of the rows whose id exists already. On PostgreSQL the
 * rows travel as one array per column (unnest), so a batch costs a handful of parameters; on
 * SQLite as a multi-row VALUES list.
 */
export async function upsertRows(
  db: Db,
  dialect: 'sqlite' | 'postgres',
  table: GeoTableName,
  columns: Array<{ name: string; type: ColumnType }>,
  rows: GeoRow[],
): Promise<void> {
  if (rows.length === 0) return;
  const updated = columns.filter((c) => c.name !== 'id').map((c) => c.name);
  if (dialect === 'postgres') {
    const arrays = columns.map((c) => sql`${rows.map((r) => r[c.name] ?? null)}::${sql.raw(c.type)}[]`);
    await sql`insert into ${sql.table(table)} (${sql.join(columns.map((c) => sql.ref(c.name)))})
      select * from unnest(${sql.join(arrays)})
      on conflict (id) do update set ${sql.join(updated.map((c) => sql`${sql.ref(c)} = excluded.${sql.ref(c)}`))}`.execute(
      db,
    );
    return;
  }
  await (db as UntypedDb)
    .insertInto(table)
    .values(rows)
    .onConflict((oc) =>
      oc.column('id').doUpdateSet((eb) => Object.fromEntries(updated.map((c) => [c, eb.ref(`excluded.${c}`)]))),
    )
    .execute();
}

/** The active rows of a table with the given columns (id and name always included). */
export async function activeRows<C extends string>(
  db: Db,
  table: GeoTableName,
  parentColumns: C[],
): Promise<Array<Record<C | 'id', number> & { name: string }>> {
  return (await (db as UntypedDb)
    .selectFrom(table)
    .select(['id', 'name', ...parentColumns])
    .where('active', '=', 1)
    .execute()) as Array<Record<C | 'id', number> & { name: string }>;
}

/** True once the catalogue holds at least one province. */
export async function hasProvinces(db: Db): Promise<boolean> {
  return (await db.selectFrom('provinces').select('id').limit(1).executeTakeFirst()) !== undefined;
}

export async function currentRevision(db: Db): Promise<number> {
  const row = await db.selectFrom('geo_revision').select('revision').where('id', '=', 1).executeTakeFirst();
  return row ? Number(row.revision) : 0;
}

export async function bumpRevision(db: Db): Promise<void> {
  await db
    .updateTable('geo_revision')
    .set((eb) => ({ revision: eb('revision', '+', 1) }))
    .where('id', '=', 1)
    .execute();
}
