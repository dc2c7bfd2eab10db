// The versions the HTTP edge reuses answers by (http/answer-reuse.ts): one per user and scope,
// raised only by the triggers of migration 202611240100 in the transaction of each change. This
// file only reads them.
import type { Kysely } from 'kysely';
import { compiledQuery } from './compiled.js';
import type { Database } from './schema.js';

/** What a version covers: a user's tickets (list and stats) or their notifications. */
export type AnswerScope = 'tickets' | 'notifications';

export interface AnswerVersionsTable {
  user_id: number;
  scope: AnswerScope;
  version: number;
}

export interface AnswerVersionTables {
  answer_versions: AnswerVersionsTable;
}

const versionOf = compiledQuery('answerVersions.versionOf', (db, userId: number, scope: AnswerScope) =>
  db.selectFrom('answer_versions').select('version').where('user_id', '=', userId).where('scope', '=', scope),
);

/** The user's version of the scope: 0 until the first change. */
export async function answerVersion(db: Kysely<Database>, userId: number, scope: AnswerScope): Promise<number> {
  const [row] = await versionOf(db, userId, scope);
  return row ? Number(row.version) : 0;
}
