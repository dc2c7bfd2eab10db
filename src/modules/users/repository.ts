import type { Kysely } from 'kysely';
import { nowIso } from '../../db/index.js';
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

export type UserRow = { id: number; first_name: string; last_name: string; email: string; is_admin: number; locale: string; created_at: string };

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

export async function findUserByEmail(db: Kysely<Database>, email: string): Promise<UserRecord | undefined> {
  const row = await db.selectFrom('users').select(USER_COLUMNS).where('email', '=', normaliseEmail(email)).executeTakeFirst();
  return row && toUser(row);
}

export interface NewUser {
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
  await db.updateTable('users').set({ is_admin: isAdmin ? 1 : 0, updated_at: nowIso() }).where('id', '=', userId).execute();
}
