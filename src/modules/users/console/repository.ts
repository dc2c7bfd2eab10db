// The SQL of the staff console's sign-in: one-time links, cookie sessions, and the staff list.
// Secrets are looked up by their SHA-256 (unique indexes); the plaintext is never stored.
import type { Kysely } from 'kysely';
import { nowIso } from '../../../db/index.js';
import type { Database } from '../../../db/schema.js';
import { USER_COLUMNS, toUser, type UserRecord } from '../repository.js';

export async function insertLink(
  db: Kysely<Database>,
  link: { user_id: number; token_hash: string; created_at: string; expires_at: string },
): Promise<void> {
  await db.insertInto('console_links').values(link).execute();
}

/** Links made for the user since a time (the sign-in mail's per-address limit). */
export async function countLinksSince(db: Kysely<Database>, userId: number, since: string): Promise<number> {
  const row = await db
    .selectFrom('console_links')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('user_id', '=', userId)
    .where('created_at', '>', since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The user of an unused, unexpired link, without using it (the link's page). */
export async function findUsableLink(
  db: Kysely<Database>,
  tokenHash: string,
  now: string,
): Promise<{ user_id: number } | undefined> {
  return db
    .selectFrom('console_links')
    .select(['user_id'])
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

/** Marks the link used if it still was usable, in one statement: of two concurrent uses one wins. */
export async function consumeLink(
  db: Kysely<Database>,
  tokenHash: string,
  now: string,
): Promise<{ user_id: number } | undefined> {
  return db
    .updateTable('console_links')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning(['user_id'])
    .executeTakeFirst();
}

export interface NewSession {
  user_id: number;
  token_hash: string;
  user_agent: string | null;
  created_at: string;
  last_seen_at: string;
  idle_expires_at: string;
  expires_at: string;
}

export async function insertSession(db: Kysely<Database>, session: NewSession): Promise<number> {
  const row = await db.insertInto('console_sessions').values(session).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export interface SessionTimes {
  id: number;
  created_at: string;
  last_seen_at: string;
  idle_expires_at: string;
  expires_at: string;
}

export interface SessionWithUser {
  session: SessionTimes & { revoked_at: string | null };
  user: UserRecord;
}

/** The session with this hash and its user, when that user is active (any session, expired or not). */
export async function findSessionWithUser(
  db: Kysely<Database>,
  tokenHash: string,
): Promise<SessionWithUser | undefined> {
  const row = await db
    .selectFrom('console_sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select(['s.id as session_id', 's.created_at as session_created_at', 's.last_seen_at', 's.idle_expires_at'])
    .select(['s.expires_at', 's.revoked_at'])
    .select(USER_COLUMNS.map((c) => `u.${c}` as const))
    .where('s.token_hash', '=', tokenHash)
    .where('u.active', '=', 1)
    .executeTakeFirst();
  if (!row) return undefined;
  const { session_id, session_created_at, last_seen_at, idle_expires_at, expires_at, revoked_at, ...user } = row;
  return {
    session: { id: session_id, created_at: session_created_at, last_seen_at, idle_expires_at, expires_at, revoked_at },
    user: toUser(user),
  };
}

/** Moves the idle expiry of a session that is still live. */
export async function touchSession(
  db: Kysely<Database>,
  id: number,
  lastSeenAt: string,
  idleExpiresAt: string,
): Promise<void> {
  await db
    .updateTable('console_sessions')
    .set({ last_seen_at: lastSeenAt, idle_expires_at: idleExpiresAt })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .execute();
}

/** Ends the user's live sessions (one of them with sessionId); how many were live. */
export async function revokeSessions(
  db: Kysely<Database>,
  userId: number,
  now: string,
  sessionId?: number,
): Promise<number> {
  const result = await db
    .updateTable('console_sessions')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .$if(sessionId !== undefined, (qb) => qb.where('id', '=', sessionId!))
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .where('idle_expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function sessionOfUser(db: Kysely<Database>, userId: number, sessionId: number) {
  return db
    .selectFrom('console_sessions')
    .select(['id'])
    .where('id', '=', sessionId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** The user's live sessions, newest first. */
export async function liveSessions(db: Kysely<Database>, userId: number, now: string) {
  return db
    .selectFrom('console_sessions')
    .select(['id', 'user_agent', 'created_at', 'last_seen_at', 'idle_expires_at', 'expires_at'])
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .where('idle_expires_at', '>', now)
    .orderBy('id', 'desc')
    .execute();
}

/** Active support staff and administrators, by name. */
export async function listStaff(db: Kysely<Database>) {
  const rows = await db
    .selectFrom('users')
    .select(USER_COLUMNS)
    .where('active', '=', 1)
    .where((eb) => eb.or([eb('is_admin', '=', 1), eb('role', '=', 'support')]))
    .orderBy('first_name')
    .orderBy('last_name')
    .orderBy('id')
    .execute();
  return rows.map(toUser);
}

export async function setLocale(db: Kysely<Database>, userId: number, locale: 'en' | 'fa'): Promise<void> {
  await db
    .updateTable('users')
    .set({ locale, updated_at: nowIso() })
    .where('id', '=', userId)
    .where('locale', '!=', locale)
    .execute();
}

/**
 * Forgets the user's links and sessions that ended before `before` (used, expired, revoked): run
 * at each sign-in, so the tables hold what is live plus a day of history per staff member.
 */
export async function forgetEnded(db: Kysely<Database>, userId: number, before: string): Promise<void> {
  await db
    .deleteFrom('console_links')
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('expires_at', '<', before), eb('used_at', '<', before)]))
    .execute();
  await db
    .deleteFrom('console_sessions')
    .where('user_id', '=', userId)
    .where((eb) =>
      eb.or([eb('expires_at', '<', before), eb('idle_expires_at', '<', before), eb('revoked_at', '<', before)]),
    )
    .execute();
}
