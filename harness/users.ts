// Users and their API tokens written straight into a database (the one a test app, a server
// process or a benchmark's server uses), behind the service: the fixture every caller that needs
// "someone signed in" starts from.
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../src/db/schema.js';
import { insertUser, type UserRecord } from '../src/modules/users/repository.js';
import { createToken, revokeToken } from '../src/modules/users/tokens.js';

export interface TestUser extends UserRecord {
  /** The plaintext token. */
  token: string;
  /** Headers that authenticate as this user. */
  auth: { authorization: string };
}

export interface UserOptions {
  admin?: boolean;
  email?: string;
  firstName?: string;
  lastName?: string;
  locale?: 'en' | 'fa';
}

/** A user with a unique address (override any field). */
export async function makeUser(db: Kysely<Database>, options: UserOptions = {}): Promise<UserRecord> {
  const suffix = randomBytes(4).toString('hex');
  return insertUser(db, {
    email: options.email ?? `user-${suffix}@example.com`,
    first_name: options.firstName ?? 'Test',
    last_name: options.lastName ?? `User ${suffix}`,
    is_admin: options.admin ?? false,
    locale: options.locale ?? 'en',
  });
}

/** A token for the user, valid unless asked for an expired or revoked one; returns the plaintext. */
export async function makeToken(
  db: Kysely<Database>,
  userId: number,
  options: { expiresInDays?: number; expired?: boolean; revoked?: boolean } = {},
): Promise<string> {
  const token = await createToken(db, userId, { expiresInDays: options.expiresInDays });
  if (options.expired) {
    await db
      .updateTable('personal_access_tokens')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', token.id)
      .execute();
  }
  if (options.revoked) await revokeToken(db, token.id);
  return token.plaintext;
}

/** A user (an administrator with { admin: true }) and a valid token, with the headers that carry it. */
export async function userWithToken(db: Kysely<Database>, options: UserOptions = {}): Promise<TestUser> {
  const user = await makeUser(db, options);
  const token = await makeToken(db, user.id);
  return { ...user, token, auth: { authorization: `Bearer ${token}` } };
}
