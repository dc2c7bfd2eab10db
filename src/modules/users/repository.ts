import { sql, type Kysely, type SqlBool } from 'kysely';
import { nowIso, type Dialect } from '../../db/index.js';
import { wasInserted } from '../../db/row-writes.js';
import type { Database } from '../../db/schema.js';

export interface UserRecord {
  id: number;
  first_name: string;
  last_name: string;
  email: string;
  is_admin: boolean;
  locale: 'en' | 'fa';
  created_at: string;
}

export const USER_COLUMNS = ['id', 'first_name', 'last_name', 'email', 'is_admin', 'locale', 'created_at'] as const;

export type UserRow = {
  id: number;
  first_name: string;
  last_name: string;
  email: string;
  is_admin: number;
  locale: string;
  created_at: string;
};

export function toUser(row: UserRow): UserRecord {
  return { ...row, is_admin: row.is_admin === 1, locale: row.locale === 'fa' ? 'fa' : 'en' };
}

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function findUserById(db: Kysely<Database>, id: number): Promise<UserRecord | undefined> {
  const row = await db.selectFrom('users').select(USER_COLUMNS).where('id', '=', id).executeTakeFirst();
  return row && toUser(row);
}

/** The user with this id when their account is active (what a token of theirs needs to be accepted). */
export async function findActiveUserById(db: Kysely<Database>, id: number): Promise<UserRecord | undefined> {
  const row = await db
    .selectFrom('users')
    .select(USER_COLUMNS)
    .where('id', '=', id)
    .where('active', '=', 1)
    .executeTakeFirst();
  return row && toUser(row);
}

export async function findUsersByIds(db: Kysely<Database>, ids: readonly number[]): Promise<UserRecord[]> {
  const rows = await db.selectFrom('users').select(USER_COLUMNS).where('id', 'in', ids).execute();
  return rows.map(toUser);
}

/** Users by id, for user:list: only admins, and only addresses containing a text (case-insensitive), when asked. */
export async function listUsers(db: Kysely<Database>, filter: { admin: boolean; emailLike?: string }) {
  let query = db
    .selectFrom('users')
    .select(['id', 'email', 'first_name', 'last_name', 'is_admin', 'active', 'created_at'])
    .orderBy('id');
  if (filter.admin) query = query.where('is_admin', '=', 1);
  if (filter.emailLike) {
    const pattern = `%${filter.emailLike.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where(sql<SqlBool>`email like ${pattern} escape '\\'`);
  }
  return query.execute();
}

export async function findUserByEmail(db: Kysely<Database>, email: string): Promise<UserRecord | undefined> {
  const row = await db
    .selectFrom('users')
    .select(USER_COLUMNS)
    .where('email', '=', normaliseEmail(email))
    .executeTakeFirst();
  return row && toUser(row);
}

export interface NewUser {
  /** The platform's id for the user; absent: the next free one. */
  id?: number;
  email: string;
  first_name: string;
  last_name: string;
  is_admin?: boolean;
  locale?: 'en' | 'fa';
}

export async function insertUser(db: Kysely<Database>, user: NewUser): Promise<UserRecord> {
  const now = nowIso();
  const row = await db
    .insertInto('users')
    .values({
      ...(user.id === undefined ? {} : { id: user.id }),
      email: normaliseEmail(user.email),
      first_name: user.first_name,
      last_name: user.last_name,
      is_admin: user.is_admin ? 1 : 0,
      locale: user.locale ?? 'en',
      created_at: now,
      updated_at: now,
    })
    .returning(USER_COLUMNS)
    .executeTakeFirstOrThrow();
  return toUser(row);
}

export async function setAdmin(db: Kysely<Database>, userId: number, isAdmin: boolean): Promise<void> {
  await db
    .updateTable('users')
    .set({ is_admin: isAdmin ? 1 : 0, updated_at: nowIso() })
    .where('id', '=', userId)
    .execute();
}

/** A user as the admin integration API shows it: with the active flag and the last change. */
export interface MirroredUser extends UserRecord {
  active: boolean;
  updated_at: string;
}

const MIRRORED_COLUMNS = [...USER_COLUMNS, 'active', 'updated_at'] as const;

function toMirroredUser(row: UserRow & { active: number; updated_at: string }): MirroredUser {
  return { ...toUser(row), active: row.active === 1, updated_at: row.updated_at };
}

/** The user, locked until the transaction ends on PostgreSQL when `lock` (SQLite has one writer at a time). */
export async function findMirroredUser(
  db: Kysely<Database>,
  id: number,
  dialect: Dialect,
  lock = false,
): Promise<MirroredUser | undefined> {
  const row = await db
    .selectFrom('users')
    .select(MIRRORED_COLUMNS)
    .where('id', '=', id)
    .$if(lock && dialect === 'postgres', (qb) => qb.forUpdate())
    .executeTakeFirst();
  return row && toMirroredUser(row);
}

export interface MirroredFields {
  email: string;
  first_name: string;
  last_name: string;
  is_admin: boolean;
  locale: 'en' | 'fa';
  active: boolean;
}

/** Inserts the user under the given id unless that id is taken; true when inserted. */
export async function insertMirroredUserIfAbsent(
  db: Kysely<Database>,
  id: number,
  fields: MirroredFields,
  now: string,
): Promise<boolean> {
  return wasInserted(
    db
      .insertInto('users')
      .values({
        id,
        ...fields,
        is_admin: fields.is_admin ? 1 : 0,
        active: fields.active ? 1 : 0,
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) => oc.column('id').doNothing())
      .returning('id'),
  );
}

/**
 * Sets only the columns given: the triggers of migration 202611211300 fire on a column named in
 * the SET list even when its value stays the same.
 */
export async function updateMirroredUser(
  db: Kysely<Database>,
  id: number,
  changes: Partial<MirroredFields>,
  now: string,
): Promise<MirroredUser> {
  const { is_admin, active, ...text } = changes;
  const row = await db
    .updateTable('users')
    .set({
      ...text,
      ...(is_admin === undefined ? {} : { is_admin: is_admin ? 1 : 0 }),
      ...(active === undefined ? {} : { active: active ? 1 : 0 }),
      updated_at: now,
    })
    .where('id', '=', id)
    .returning(MIRRORED_COLUMNS)
    .executeTakeFirstOrThrow();
  return toMirroredUser(row);
}

/** Whether another user (not `exceptId`) has this address. */
export async function emailTakenByOther(db: Kysely<Database>, email: string, exceptId: number): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('email', '=', normaliseEmail(email))
    .where('id', '!=', exceptId)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * After a user was inserted with an id of its own: on PostgreSQL the identity sequence does not
 * see explicit ids, so it is moved past the largest id (never back), or the next user:create
 * without --id could be handed an id that is taken. SQLite's AUTOINCREMENT follows by itself.
 */
export async function advanceUserIdSequence(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  if (dialect !== 'postgres') return;
  const lastValue = sql`coalesce(pg_sequence_last_value(pg_get_serial_sequence('users', 'id')::regclass), 1)`;
  await sql`select setval(pg_get_serial_sequence('users', 'id'), greatest((select max(id) from users), ${lastValue}))`.execute(
    db,
  );
}

/** A unique-constraint violation on either dialect (here: the email of another user). */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: string } | undefined)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}
