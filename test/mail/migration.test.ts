// Migration 202611251500_tickets_by_email down and up again on the database under test: the
// outbox loses and regains its threading columns with its rows kept, the inbound tables go and
// come back.
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrateToLatest, migrator } from '../../src/db/migrate.js';
import { isPostgres } from '../../src/db/schema-helpers.js';
import { enqueueMail } from '../../src/mail/outbox.js';
import { createTestDatabase, type TestDatabase } from '../helpers/app.js';

const NAME = '202611251500_tickets_by_email';
let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase({ LOG_LEVEL: 'silent' });
});
afterAll(() => database.destroy());

it('migrates down and up again, keeping the outbox rows', async () => {
  const db = database.db;
  await enqueueMail(db, { to: 'a@example.com', subject: 's', text: 't', messageId: '<m@x>', ticketId: 1 });
  await db
    .insertInto('inbound_mail')
    .values({
      message_id: '<in@x>',
      from_address: 'a@example.com',
      subject: 's',
      status: 'ignored',
      reason: null,
      ticket_id: null,
      comment_id: null,
      outbox_id: null,
      original_text: '',
      raw_message: null,
      created_at: new Date().toISOString(),
    })
    .execute();
  const schema = isPostgres(db)
    ? (await sql<{ s: string }>`select current_schema() as s`.execute(db)).rows[0]!.s
    : undefined;
  const m = migrator(db, schema);
  const names = (await m.getMigrations()).map((x) => x.name);
  const down = await m.migrateTo(names[names.indexOf(NAME) - 1]!);
  expect(down.error).toBeUndefined();
  const rows = await sql<Record<string, unknown>>`select * from mail_outbox`.execute(db);
  expect(rows.rows).toHaveLength(1);
  expect(Object.keys(rows.rows[0]!)).not.toContain('message_id');
  await expect(sql`select 1 from inbound_mail`.execute(db)).rejects.toThrow();

  expect(await migrateToLatest(db)).toContain(NAME);
  const outbox = await db.selectFrom('mail_outbox').selectAll().executeTakeFirstOrThrow();
  expect(outbox).toMatchObject({ to_address: 'a@example.com', message_id: null, status: 'pending' });
  expect(await db.selectFrom('inbound_mail').selectAll().execute()).toEqual([]);
});
