// The SQL of personal access tokens: insert, the lookup of a token with its user (on every
// authenticated request), last use, revocation and the lists of a user's tokens.
import type { Kysely } from 'kysely';
import { compiledQuery } from '../../db/compiled.js';
import type { AnswerScope } from '../../db/answer-versions.js';
import { nowIso } from '../../db/index.js';
import type { Database } from '../../db/schema.js';

/** Stores a token (its hash only); returns its id. */
export async function insertToken(
  db: Kysely<Database>,
  values: { user_id: number; name: string; token_hash: string; expires_at: string | null; created_at: string },
): Promise<number> {
  const row = await db.insertInto('personal_access_tokens').values(values).returning(['id']).executeTakeFirstOrThrow();
  return row.id;
}

function tokenAndUser(db: Kysely<Database>, id: number) {
  return (
    db
      .selectFrom('personal_access_tokens as t')
      .innerJoin('users as u', 'u.id', 't.user_id')
      .select(['t.id', 't.token_hash', 't.expires_at', 't.revoked_at', 't.last_used_at'])
      .select([
        'u.id as user_id',
        'u.first_name',
        'u.last_name',
        'u.email',
        'u.is_admin',
        'u.role',
        'u.locale',
        'u.created_at',
      ])
      .where('t.id', '=', id)
      // A deactivated user's tokens stop working on the next request, whoever deactivated them.
      .where('u.active', '=', 1)
  );
}

/** The token and its user in one query: this runs on every authenticated request. */
export const tokenWithUser = compiledQuery('users.tokenWithUser', tokenAndUser);

/**
 * The same, with the user's answer version of a scope (http/answer-reuse.ts) in the same round
 * trip, for the routes that reuse answers: one statement per reused answer instead of two.
 */
export const tokenWithUserAndVersion = compiledQuery(
  'users.tokenWithUserAndVersion',
  (db, id: number, scope: AnswerScope) =>
    tokenAndUser(db, id).select((eb) =>
      eb
        .selectFrom('answer_versions as v')
        .select('v.version')
        .whereRef('v.user_id', '=', 'u.id')
        .where('v.scope', '=', scope)
        .as('answer_version'),
    ),
);

/** A token and its user as the lookup reads them. */
export type TokenRow = Awaited<ReturnType<typeof tokenWithUser>>[number];

/** Records when the token was last used. */
export async function touchToken(db: Kysely<Database>, tokenId: number, at: string): Promise<void> {
  await db.updateTable('personal_access_tokens').set({ last_used_at: at }).where('id', '=', tokenId).execute();
}

/** Revokes the unrevoked tokens whose column has the value; returns how many. */
async function revokeWhere(db: Kysely<Database>, column: 'id' | 'user_id', value: number): Promise<number> {
  const result = await db
    .updateTable('personal_access_tokens')
    .set({ revoked_at: nowIso() })
    .where(column, '=', value)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export function revokeToken(db: Kysely<Database>, tokenId: number): Promise<number> {
  return revokeWhere(db, 'id', tokenId);
}

export function revokeAllTokens(db: Kysely<Database>, userId: number): Promise<number> {
  return revokeWhere(db, 'user_id', userId);
}

export interface TokenSummary {
  id: number;
  name: string;
  last_used_at: string | null;
  expires_at: string | null;
  created_at: string;
}

/** Every token of the user, live or not, oldest first (token:list); never the hash. */
export function tokensOf(db: Kysely<Database>, userId: number) {
  return db
    .selectFrom('personal_access_tokens')
    .select(['id', 'name', 'created_at', 'last_used_at', 'expires_at', 'revoked_at'])
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
}

/** The user's tokens that still sign in (neither revoked nor expired), newest first; never the hash. */
export async function liveTokens(db: Kysely<Database>, userId: number, now = nowIso()): Promise<TokenSummary[]> {
  return db
    .selectFrom('personal_access_tokens')
    .select(['id', 'name', 'last_used_at', 'expires_at', 'created_at'])
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .orderBy('id', 'desc')
    .execute();
}

/** Revokes the token when it belongs to the user: undefined when it does not (or does not exist), else whether it was still unrevoked. */
export async function revokeTokenOfUser(
  db: Kysely<Database>,
  userId: number,
  tokenId: number,
): Promise<{ revoked: boolean } | undefined> {
  const token = await db
    .selectFrom('personal_access_tokens')
    .select(['id'])
    .where('id', '=', tokenId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!token) return undefined;
  const count = await revokeToken(db, tokenId);
  return { revoked: count > 0 };
}
