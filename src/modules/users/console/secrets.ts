// The secrets of console links and sessions: 32 random bytes, base64url (43 characters). Only a
// secret's SHA-256 is stored. A session's anti-forgery token is derived from the cookie's secret,
// so it needs no column and cannot be turned back into the cookie.
import { createHash, randomBytes } from 'node:crypto';

const SECRET_FORMAT = /^[A-Za-z0-9_-]{43}$/;

export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** The secret's SHA-256 in hex, or undefined for text that is not a secret of ours. */
export function hashOf(secret: string): string | undefined {
  if (!SECRET_FORMAT.test(secret)) return undefined;
  return createHash('sha256').update(secret).digest('hex');
}

export function csrfTokenOf(sessionSecret: string): string {
  return createHash('sha256').update(`csrf:${sessionSecret}`).digest('base64url');
}
