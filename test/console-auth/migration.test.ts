// Migration 202611251600_console_auth runs down and up again on the database of the run, and its
// backfill gives every administrator (is_admin 1) the admin role and everyone else member.
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrateToLatest, migrator } from '../../src/db/migrate.js';
import { isPostgres } from '../../src/db/schema-helpers.js';
import { findUserById } from '../../src/modules/users/repository.js';
import { createTestDatabase, type TestDatabase } from '../helpers/app.js';
import { makeUser } from '../helpers/factories.js';

const MIGRATION = '202611251600_console_auth';
let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase({ LOG_LEVEL: 'silent' });
});
afterAll(() => database.destroy());

async function schemaFor(): Promise<string | undefined> {
  if (!isPostgres(database.db)) return undefined;
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(database.db);
  return rows[0]!.schema;
}

it('migrates down and up again, backfilling role from is_admin', async () => {
  const db = database.db;
  const admin = await makeUser(db, { admin: true });
  const member = await makeUser(db);
  const m = migrator(db, await schemaFor());
  const names = (await m.getMigrations()).map((x) => x.name);
  const down = await m.migrateTo(names[names.indexOf(MIGRATION) - 1]!);
  expect(down.error).toBeUndefined();
  expect(down.results).toContainEqual({ migrationName: MIGRATION, direction: 'Down', status: 'Success' });
  await expect(sql`select role from users`.execute(db)).rejects.toThrow();
  await expect(sql`select id from console_sessions`.execute(db)).rejects.toThrow();
  // An administrator made while the column did not exist (is_admin alone).
  await sql`update users set is_admin = 1 where id = ${member.id}`.execute(db);
  await sql`update users set is_admin = 0 where id = ${admin.id}`.execute(db);

  expect(await migrateToLatest(db)).toContain(MIGRATION);
  const rows = await sql<{ id: number; role: string }>`select id, role from users order by id`.execute(db);
  expect(rows.rows.map((r) => ({ id: Number(r.id), role: r.role }))).toEqual([
    { id: admin.id, role: 'member' },
    { id: member.id, role: 'admin' },
  ]);
  expect((await findUserById(db, member.id))?.role).toBe('admin');
});

it('reads is_admin 1 as admin whatever role says, so a write of is_admin alone still counts', async () => {
  const db = database.db;
  const user = await makeUser(db);
  await db.updateTable('users').set({ role: 'support' }).where('id', '=', user.id).execute();
  expect((await findUserById(db, user.id))?.role).toBe('support');
  await db.updateTable('users').set({ is_admin: 1 }).where('id', '=', user.id).execute();
  expect(await findUserById(db, user.id)).toMatchObject({ role: 'admin', is_admin: true });
  await db.updateTable('users').set({ is_admin: 0, role: 'admin' }).where('id', '=', user.id).execute();
  expect(await findUserById(db, user.id)).toMatchObject({ role: 'member', is_admin: false });
});
