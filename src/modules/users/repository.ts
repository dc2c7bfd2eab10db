import { sql, type Kysely, type SqlBool } from 'kysely';
import { nowIso, type Dialect } from '../../db/index.js';
import { wasInserted } from '../../db/row-writes.js';
import { likeContains } from '../../db/like.js';
import type { Database } from '../../db/schema.js';

/** member: the platform's users; support: staff who work tickets; admin: staff who also manage the service. */
export type Role = 'member' | 'support' | 'admin';
export const ROLES: readonly Role[] = ['member', 'support', 'admin'];

export interface UserRecord {
  id: number;
  first_name: string;
  last_name: string;
  email: string;
  /** Always role === 'admin'. */
  is_admin: boolean;
  role: Role;
  locale: 'en' | 'fa';
  created_at: string;
}

export const USER_COLUMNS = [
  'id',
  'first_name',
  'last_name',
  'email',
  'is_admin',
  'role',
  'locale',
  'created_at',
] as const;

export type UserRow = {
  id: number;
  first_name: string;
  last_name: string;
  email: string;
  is_admin: number;
  role: string;
  locale: string;
  created_at: string;
};

/**
 * The role as stored: is_admin 1 is an administrator whatever role says (a write of is_admin
 * alone, by SQL or an older caller, still counts); otherwise support or member.
 */
export function roleOf(row: { is_admin: number; role: string }): Role {
  if (row.is_admin === 1) return 'admin';
  return row.role === 'support' ? 'support' : 'member';
}

export function toUser(row: UserRow): UserRecord {
  const role = roleOf(row);
  return { ...row, is_admin: role === 'admin', role, locale: row.locale === 'fa' ? 'fa' : 'en' };
}

/** The columns that store a role: both, always in step. */
export function roleColumns(role: Role): { role: Role; is_admin: number } {
  return { role, is_admin: role === 'admin' ? 1 : 0 };
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
    .select(['id', 'email', 'first_name', 'last_name', 'is_admin', 'role', 'active', 'created_at'])
    .orderBy('id');
  if (filter.admin) query = query.where('is_admin', '=', 1);
  if (filter.emailLike) {
    const pattern = likeContains(filter.emailLike);
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
  /** Wins over is_admin when given. */
  role?: Role;
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
      ...roleColumns(user.role ?? (user.is_admin ? 'admin' : 'member')),
      locale: user.locale ?? 'en',
      created_at: now,
      updated_at: now,
    })
    .returning(USER_COLUMNS)
    .executeTakeFirstOrThrow();
  return toUser(row);
}

export async function setRole(db: Kysely<Database>, userId: number, role: Role): Promise<void> {
  await db
    .updateTable('users')
    .set({ ...roleColumns(role), updated_at: nowIso() })
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
  role: Role;
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
        ...roleColumns(fields.role),
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
  const { is_admin: _derived, role, active, ...text } = changes;
  const row = await db
    .updateTable('users')
    .set({
      ...text,
      ...(role === undefined ? {} : roleColumns(role)),
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
