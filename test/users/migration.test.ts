// Migration 202611231800_users_active runs down and up again on the database of the run, and
// its trigger is the one that moves tickets_version on an email change.
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrateToLatest, migrator } from '../../src/db/migrate.js';
import { isPostgres } from '../../src/db/schema-helpers.js';
import { createTestDatabase, type TestDatabase } from '../helpers/app.js';
import { makeUser } from '../helpers/factories.js';
import { answerVersion } from '../../src/db/answer-versions.js';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase({ LOG_LEVEL: 'silent' });
});
afterAll(() => database.destroy());

async function usersColumns(): Promise<string[]> {
  const db = database.db;
  if (isPostgres(db)) {
    const { rows } = await sql<{
      name: string;
    }>`select column_name as name from information_schema.columns where table_name = 'users' and table_schema = current_schema()`.execute(
      db,
    );
    return rows.map((r) => r.name);
  }
  const { rows } = await sql<{ name: string }>`select name from pragma_table_info('users')`.execute(db);
  return rows.map((r) => r.name);
}

async function schemaFor(db: TestDatabase['db']): Promise<string | undefined> {
  if (!isPostgres(db)) return undefined;
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  return rows[0]!.schema;
}

it('migrates down (no active column, no email trigger) and up again, keeping the users', async () => {
  const db = database.db;
  const user = await makeUser(db);
  const m = migrator(db, await schemaFor(db));
  // Back to the migration before this one (later ones, if any, go down first and come back with it).
  const names = (await m.getMigrations()).map((x) => x.name);
  const previous = names[names.indexOf('202611231800_users_active') - 1]!;
  const down = await m.migrateTo(previous);
  expect(down.error).toBeUndefined();
  expect(down.results).toContainEqual({
    migrationName: '202611231800_users_active',
    direction: 'Down',
    status: 'Success',
  });
  expect(await usersColumns()).not.toContain('active');
  // Down there the counter is still the users column of 202611211300 (202611240100 moved it).
  const downVersion = async () =>
    (await sql<{ v: number }>`select tickets_version as v from users where id = ${user.id}`.execute(db)).rows[0]!.v;
  const before = await downVersion();
  await db.updateTable('users').set({ email: 'down@example.com' }).where('id', '=', user.id).execute();
  expect(await downVersion()).toBe(before);

  expect(await migrateToLatest(db)).toContain('202611231800_users_active');
  expect(await usersColumns()).toContain('active');
  expect(await db.selectFrom('users').select('active').where('id', '=', user.id).executeTakeFirstOrThrow()).toEqual({
    active: 1,
  });
  const upBefore = await answerVersion(db, user.id, 'tickets');
  await db.updateTable('users').set({ email: 'up@example.com' }).where('id', '=', user.id).execute();
  expect(await answerVersion(db, user.id, 'tickets')).toBe(upBefore + 1);
});
