// The users boundary: what other modules (auth, the assistant, notifications) may ask about users.
// Only the users module reads or writes the users table; everyone else comes through here, so a
// change of that table's columns stays inside this folder. Every function takes the connection or
// the caller's transaction, so a lookup can share the transaction of the write it belongs to.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { findActiveUserById, findUserByEmail, findUserById, findUsersByIds, type UserRecord } from './repository.js';

export type { UserRecord } from './repository.js';
export { TokenVerifier } from './tokens.js';

/** The user with this id, or undefined when there is none. */
export function findUser(db: Kysely<Database>, id: number): Promise<UserRecord | undefined> {
  return findUserById(db, id);
}

/** The user with this id if their account is active (every token of an inactive user answers 401). */
export function findActiveUser(db: Kysely<Database>, id: number): Promise<UserRecord | undefined> {
  return findActiveUserById(db, id);
}

/**
 * The user a row of another table points at through a foreign key to users.id: the constraint
 * guarantees the user exists, so a miss is a broken database and throws rather than answering.
 */
export async function referencedUser(db: Kysely<Database>, id: number): Promise<UserRecord> {
  const user = await findUserById(db, id);
  if (!user) throw new Error(`user ${id} is referenced by a foreign key but does not exist`);
  return user;
}

/** The users with these ids, by id; ids without a user are absent from the map. */
export async function usersByIds(db: Kysely<Database>, ids: readonly number[]): Promise<Map<number, UserRecord>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const users = await findUsersByIds(db, unique);
  return new Map(users.map((user) => [user.id, user]));
}

/** The user with this address (compared lower-cased), or undefined. */
export function userByEmail(db: Kysely<Database>, email: string): Promise<UserRecord | undefined> {
  return findUserByEmail(db, email);
}

export { ConsoleSessionVerifier, isStaffRole, type ConsoleSession } from './console/sessions.js';
export type { Role } from './repository.js';
