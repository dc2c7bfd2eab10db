// The staff console's own tables and indexes:
// - ticket_notes: internal notes, staff-only. A table apart from ticket_comments so that no query a
//   member's answer is built from (detail, list, caches, mails) can ever read one.
// - saved_replies: reply templates per language.
// - ticket_presence: who is viewing or replying to a ticket, until expires_at (the database form;
//   with REDIS_URL the same facts live in Redis).
// - the queue's indexes: open tickets by their next SLA deadline (partial: closed tickets have
//   none), by assignee, closed tickets by their last change; conversations by their ticket.
// - on PostgreSQL, triggers that signal new tickets, comments and notes on the channel
//   platform_staff with the schema as payload (delivered at commit); instances LISTEN and read
//   what is new. SQLite instances poll the same rows.
import { sql, type Kysely } from 'kysely';
import { isPostgres, timestampType, withSerialId } from '../schema-helpers.js';

const NEXT_DUE = 'case when first_response_at is null then first_response_due_at else sla_deadline end';

export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);
  await withSerialId(db, db.schema.createTable('ticket_notes'))
    .addColumn('ticket_id', 'integer', (c) => c.notNull().references('tickets.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('ticket_notes_ticket_index').on('ticket_notes').columns(['ticket_id', 'id']).execute();

  await withSerialId(db, db.schema.createTable('saved_replies'))
    .addColumn('title', 'varchar(120)', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('lang', 'varchar(2)', (c) => c.notNull())
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('saved_replies_lang_index').on('saved_replies').columns(['lang', 'title']).execute();

  await db.schema
    .createTable('ticket_presence')
    .addColumn('ticket_id', 'integer', (c) => c.notNull().references('tickets.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('state', 'varchar(10)', (c) => c.notNull())
    .addColumn('expires_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('ticket_presence_pkey', ['ticket_id', 'user_id'])
    .execute();

  await sql
    .raw(`create index tickets_open_next_due_index on tickets ((${NEXT_DUE}), id) where status <> 'closed'`)
    .execute(db);
  // Mine and Unassigned: one assignee's (or nobody's) open tickets, already in deadline order.
  await sql
    .raw(
      `create index tickets_open_assignee_next_due_index on tickets (assignee_id, (${NEXT_DUE}), id) where status <> 'closed'`,
    )
    .execute(db);
  await db.schema
    .createIndex('tickets_status_updated_index')
    .on('tickets')
    .columns(['status', 'updated_at', 'id'])
    .execute();

  // The ticket page shows the assistant conversation a ticket was escalated from.
  await db.schema
    .createIndex('assistant_conversations_escalated_ticket_index')
    .on('assistant_conversations')
    .column('escalated_ticket_id')
    .execute();

  if (isPostgres(db)) {
    await sql
      .raw(
        'create function staff_console_signal() returns trigger language plpgsql as $$ begin ' +
          "perform pg_notify('platform_staff', current_schema()); return null; end $$",
      )
      .execute(db);
    for (const table of ['tickets', 'ticket_comments', 'ticket_notes'])
      await sql
        .raw(
          `create trigger ${table}_staff_signal after insert on ${table} for each statement execute function staff_console_signal()`,
        )
        .execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    for (const table of ['tickets', 'ticket_comments', 'ticket_notes'])
      await sql.raw(`drop trigger ${table}_staff_signal on ${table}`).execute(db);
    await sql.raw('drop function staff_console_signal()').execute(db);
  }
  for (const index of [
    'assistant_conversations_escalated_ticket_index',
    'tickets_open_next_due_index',
    'tickets_open_assignee_next_due_index',
    'tickets_status_updated_index',
  ])
    await db.schema.dropIndex(index).execute();
  for (const table of ['ticket_presence', 'saved_replies', 'ticket_notes']) await db.schema.dropTable(table).execute();
}
