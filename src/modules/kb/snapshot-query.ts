// The reads of the kept index (index-snapshot.ts): what identifies the store, and the change log's
// row of the last change an index holds.
import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../../db/schema-helpers.js';
import type { Database } from '../../db/schema.js';

/** The last article change an index holds: its id in the log and the row (0 and null before any). */
export interface ChangeMark {
  seen: number;
  row: { key: string; lang: string; created_at: string } | null;
}

/** The store's identity (see index-snapshot.ts); throws when it has no migration table. */
export async function storeIdentity(db: Kysely<Database>): Promise<string> {
  const parts: unknown[] = [isPostgres(db) ? 'postgres' : 'sqlite'];
  if (isPostgres(db)) {
    const { rows } = await sql<{ d: string; s: string }>`select current_database() as d, current_schema() as s`.execute(
      db,
    );
    parts.push(rows[0]);
  }
  const { rows } = await sql<{ name: string; timestamp: unknown }>`
    select name, timestamp from kysely_migration order by name`.execute(db);
  parts.push(rows.map((r) => [r.name, String(r.timestamp)]));
  return JSON.stringify(parts);
}

/** The change log's row of an id (null for 0 or an id the log does not hold). */
export async function changeMark(db: Kysely<Database>, seen: number): Promise<ChangeMark> {
  if (seen === 0) return { seen, row: null };
  const row = await db
    .selectFrom('kb_changes')
    .select(['key', 'lang', 'created_at'])
    .where('id', '=', seen)
    .executeTakeFirst();
  const at = row?.created_at as unknown;
  const created = at instanceof Date ? at.toISOString() : String(at);
  return { seen, row: row ? { key: row.key, lang: row.lang, created_at: created } : null };
}

/** How many article changes the log holds after `seen` (counted up to `limit`, which is enough to know it is more). */
export async function changesSince(db: Kysely<Database>, seen: number, limit: number): Promise<number> {
  const rows = await db
    .selectFrom('kb_changes')
    .select('id')
    .where('id', '>', seen)
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.length;
}
