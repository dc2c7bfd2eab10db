// Personal access tokens: "<id>|<40 random characters>". Only the SHA-256 of the secret is stored;
// lookups go by id and compare hashes in constant time.
import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import { compiledQuery } from '../../db/compiled.js';
import { nowIso } from '../../db/index.js';
import type { AnswerScope } from '../../db/answer-versions.js';
import type { Database } from '../../db/schema.js';
import { toUser, type UserRecord } from './repository.js';

const SECRET_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const SECRET_LENGTH = 40;
const TOKEN_FORMAT = /^(\d{1,15})\|([A-Za-z0-9]{40})$/;
/** last_used_at is written at most this often per token, so reads do not turn into writes. */
const LAST_USED_RESOLUTION_MS = 60_000;

function randomSecret(): string {
  let secret = '';
  for (let i = 0; i < SECRET_LENGTH; i++) secret += SECRET_ALPHABET[randomInt(SECRET_ALPHABET.length)];
  return secret;
}

function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export interface CreatedToken {
  id: number;
  plaintext: string;
  expires_at: string | null;
}

export async function createToken(
  db: Kysely<Database>,
  userId: number,
  options: { name?: string; expiresInDays?: number } = {},
): Promise<CreatedToken> {
  const secret = randomSecret();
  const expiresAt =
    options.expiresInDays === undefined
      ? null
      : new Date(Date.now() + options.expiresInDays * 86_400_000).toISOString();
  const row = await db
    .insertInto('personal_access_tokens')
    .values({
      user_id: userId,
      name: options.name ?? 'default',
      token_hash: hashSecret(secret),
      expires_at: expiresAt,
      created_at: nowIso(),
    })
    .returning(['id'])
    .executeTakeFirstOrThrow();
  return { id: row.id, plaintext: `${row.id}|${secret}`, expires_at: expiresAt };
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
const tokenWithUser = compiledQuery('users.tokenWithUser', tokenAndUser);

/**
 * The same, with the user's answer version of a scope (http/answer-reuse.ts) in the same round
 * trip, for the routes that reuse answers: one statement per reused answer instead of two.
 */
const tokenWithUserAndVersion = compiledQuery('users.tokenWithUserAndVersion', (db, id: number, scope: AnswerScope) =>
  tokenAndUser(db, id).select((eb) =>
    eb
      .selectFrom('answer_versions as v')
      .select('v.version')
      .whereRef('v.user_id', '=', 'u.id')
      .where('v.scope', '=', scope)
      .as('answer_version'),
  ),
);

/** A verified caller, with their answer version of the scope the route asked for. */
export interface VerifiedCaller {
  user: UserRecord;
  /** 0 until the user's first change in the scope. */
  answerVersion: number;
}

type TokenRow = Awaited<ReturnType<typeof tokenWithUser>>[number];

/** The id and secret of a well-formed bearer token ("<id>|<40 characters>"), else undefined. */
function parseBearer(bearer: string): { id: number; secret: string } | undefined {
  const match = TOKEN_FORMAT.exec(bearer);
  return match ? { id: Number(match[1]), secret: match[2]! } : undefined;
}

export class TokenVerifier {
  /** token id -> when this process last wrote its last_used_at. */
  private readonly lastWrite = new Map<number, number>();

  constructor(private readonly db: Kysely<Database>) {}

  /** The token's user, or undefined for a malformed, unknown, revoked or expired token. */
  async verify(bearer: string): Promise<UserRecord | undefined> {
    const parsed = parseBearer(bearer);
    if (!parsed) return undefined;
    const [token] = await tokenWithUser(this.db, parsed.id);
    return token && this.accept(parsed.secret, token);
  }

  /** verify(), also reading the user's answer version of `scope` in the same statement. */
  async verifyWithVersion(bearer: string, scope: AnswerScope): Promise<VerifiedCaller | undefined> {
    const parsed = parseBearer(bearer);
    if (!parsed) return undefined;
    const [token] = await tokenWithUserAndVersion(this.db, parsed.id, scope);
    const user = token && this.accept(parsed.secret, token);
    return user && { user, answerVersion: token.answer_version === null ? 0 : Number(token.answer_version) };
  }

  private accept(secret: string, token: TokenRow): UserRecord | undefined {
    if (token.revoked_at !== null) return undefined;
    const expected = Buffer.from(token.token_hash, 'hex');
    const given = Buffer.from(hashSecret(secret), 'hex');
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
    const now = Date.now();
    if (token.expires_at !== null && Date.parse(token.expires_at) <= now) return undefined;
    this.touch(token.id, token.last_used_at, now);
    const { user_id, first_name, last_name, email, is_admin, role, locale, created_at } = token;
    return toUser({ id: user_id, first_name, last_name, email, is_admin, role, locale, created_at });
  }

  private touch(tokenId: number, lastUsedAt: string | null, now: number): void {
    const stored = lastUsedAt === null ? 0 : Date.parse(lastUsedAt);
    const written = this.lastWrite.get(tokenId) ?? 0;
    if (now - Math.max(stored, written) < LAST_USED_RESOLUTION_MS) return;
    this.lastWrite.set(tokenId, now);
    // Bookkeeping only: a failed write must not fail the request.
    this.db
      .updateTable('personal_access_tokens')
      .set({ last_used_at: new Date(now).toISOString() })
      .where('id', '=', tokenId)
      .execute()
      .catch(() => this.lastWrite.delete(tokenId));
  }
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
