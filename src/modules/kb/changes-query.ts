// Revisions of articles and the change log every instance re-indexes from.
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';
import { isPostgres } from '../../db/schema-helpers.js';
import type { ArticleFields, ArticleLang } from './tables.js';

type Db = Kysely<Database> | Transaction<Database>;

/** The PostgreSQL channel an article change is announced on ("<schema> <change id>"), at commit. */
export const KB_CHANNEL = 'platform_kb';

export interface RevisionRecord {
  revision: number;
  action: string;
  snapshot: ArticleFields;
  changed: string[];
  created_by: number | null;
  created_at: string;
}

export async function insertRevision(
  trx: Transaction<Database>,
  articleId: number,
  revision: Omit<RevisionRecord, 'created_at'>,
  now: string,
): Promise<void> {
  await trx
    .insertInto('kb_revisions')
    .values({
      article_id: articleId,
      revision: revision.revision,
      action: revision.action,
      snapshot: JSON.stringify(revision.snapshot),
      changed: JSON.stringify(revision.changed),
      created_by: revision.created_by,
      created_at: now,
    })
    .execute();
}

export async function listRevisions(db: Db, articleId: number, revision?: number): Promise<RevisionRecord[]> {
  let query = db
    .selectFrom('kb_revisions')
    .select(['revision', 'action', 'snapshot', 'changed', 'created_by', 'created_at'])
    .where('article_id', '=', articleId);
  if (revision !== undefined) query = query.where('revision', '=', revision);
  const rows = await query.orderBy('revision', 'desc').execute();
  return rows.map((r) => ({
    ...r,
    snapshot: JSON.parse(r.snapshot) as ArticleFields,
    changed: JSON.parse(r.changed) as string[],
  }));
}

/** Logs that an article changed and, on PostgreSQL, says so on the kb channel when the transaction commits. */
export async function recordChange(trx: Transaction<Database>, key: string, lang: ArticleLang, now: string) {
  const { id } = await trx
    .insertInto('kb_changes')
    .values({ key, lang, created_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (isPostgres(trx))
    await sql`select pg_notify(${KB_CHANNEL}, current_schema() || ' ' || ${String(id)})`.execute(trx);
}

export async function changesAfter(db: Db, after: number) {
  return db
    .selectFrom('kb_changes')
    .select(['id', 'key', 'lang'])
    .where('id', '>', after)
    .orderBy('id')
    .limit(5000)
    .execute();
}

export async function lastChange(db: Db): Promise<number> {
  const row = await db
    .selectFrom('kb_changes')
    .select((eb) => eb.fn.max('id').as('last'))
    .executeTakeFirst();
  return Number(row?.last ?? 0);
}

/** A write refused by a unique index (two editors taking one key or slug at the same moment). */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
