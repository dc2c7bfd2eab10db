// Personal access tokens: "<id>|<40 random characters>". Only the SHA-256 of the secret is stored;
// lookups go by id and compare hashes in constant time.
import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import { nowIso } from '../../db/index.js';
import type { AnswerScope } from '../../db/answer-versions.js';
import type { Database } from '../../db/schema.js';
import { toUser, type UserRecord } from './repository.js';
import { insertToken, tokenWithUser, tokenWithUserAndVersion, touchToken, type TokenRow } from './token-query.js';

export {
  liveTokens,
  revokeAllTokens,
  revokeToken,
  revokeTokenOfUser,
  tokensOf,
  type TokenSummary,
} from './token-query.js';

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
  const id = await insertToken(db, {
    user_id: userId,
    name: options.name ?? 'default',
    token_hash: hashSecret(secret),
    expires_at: expiresAt,
    created_at: nowIso(),
  });
  return { id, plaintext: `${id}|${secret}`, expires_at: expiresAt };
}

/** A verified caller, with their answer version of the scope the route asked for. */
export interface VerifiedCaller {
  user: UserRecord;
  /** 0 until the user's first change in the scope. */
  answerVersion: number;
}

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
    touchToken(this.db, tokenId, new Date(now).toISOString()).catch(() => this.lastWrite.delete(tokenId));
  }
}
