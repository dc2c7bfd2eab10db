// Stream tokens: a browser's EventSource cannot send an Authorization header, so a signed-in client
// first asks for a short ticket (POST /api/notifications/stream-tokens) and opens
// /api/notifications/stream?stream_token=<ticket>. A ticket is random (32 bytes), bound to the user
// who asked, good for 60 seconds and one use; only its SHA-256 is stored, and using it deletes it.
// The bearer token itself is never accepted in a URL (URLs end up in logs and browser history).
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { nowIso } from '../../db/index.js';
import type { Database } from '../../db/schema.js';
import { findActiveUser, type UserRecord } from '../users/service.js';
import { insertStreamToken, takeStreamToken } from './stream-repository.js';

export const STREAM_TOKEN_TTL_MS = 60_000;
const TOKEN_FORMAT = /^[A-Za-z0-9_-]{43}$/;

const hash = (token: string) => createHash('sha256').update(token).digest('hex');

export async function issueStreamToken(
  db: Kysely<Database>,
  userId: number,
): Promise<{ token: string; expires_at: string }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + STREAM_TOKEN_TTL_MS).toISOString();
  await insertStreamToken(db, hash(token), userId, expiresAt, nowIso());
  return { token, expires_at: expiresAt };
}

/** The user a stream token was issued to, if it is unused, unexpired and the account still active; the token is used up. */
export async function redeemStreamToken(db: Kysely<Database>, token: unknown): Promise<UserRecord | undefined> {
  if (typeof token !== 'string' || !TOKEN_FORMAT.test(token)) return undefined;
  const row = await takeStreamToken(db, hash(token));
  if (!row || !(Date.parse(row.expires_at) > Date.now())) return undefined;
  return findActiveUser(db, row.user_id);
}
