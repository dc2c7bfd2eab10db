// SQL of the saved replies.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

export interface SavedReplyRow {
  id: number;
  title: string;
  body: string;
  lang: string;
  created_at: string;
  updated_at: string;
}

const COLUMNS = ['id', 'title', 'body', 'lang', 'created_at', 'updated_at'] as const;

export function listSavedReplies(db: Kysely<Database>, lang: string | undefined): Promise<SavedReplyRow[]> {
  let query = db.selectFrom('saved_replies').select(COLUMNS);
  if (lang) query = query.where('lang', '=', lang);
  return query.orderBy('lang').orderBy('title').orderBy('id').execute();
}

export function insertSavedReply(
  db: Kysely<Database>,
  values: Omit<SavedReplyRow, 'id'> & { created_by: number },
): Promise<SavedReplyRow> {
  return db.insertInto('saved_replies').values(values).returning(COLUMNS).executeTakeFirstOrThrow();
}

export function updateSavedReply(
  db: Kysely<Database>,
  id: number,
  values: Pick<SavedReplyRow, 'title' | 'body' | 'lang' | 'updated_at'>,
): Promise<SavedReplyRow | undefined> {
  return db.updateTable('saved_replies').set(values).where('id', '=', id).returning(COLUMNS).executeTakeFirst();
}

export async function deleteSavedReply(db: Kysely<Database>, id: number): Promise<boolean> {
  const result = await db.deleteFrom('saved_replies').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}
