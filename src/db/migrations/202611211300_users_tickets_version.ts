// A counter on each user that moves with every change to a ticket the user can see in their own
// list (their user id or their email on it): the ticket itself, its tags, the name of a tag on it,
// the name of its assignee. GET /api/tickets and /stats keep the answers they built for a user
// and reuse them while the counter is unchanged (http/answer-cache.ts). Triggers raise it, not
// the service code: tickets change in several places (the service, staff routes, CLI commands,
// foreign keys that set null), and a trigger also sees a change made with SQL behind the service.
// Each trigger raises the counter of every user whose list held or now holds the row, in the
// changing statement's transaction.
import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../schema-helpers.js';

const RAISE = 'update users set tickets_version = tickets_version + 1 where';
/** The users whose list shows the ticket: its user id or its email (the spec's ownership rule). */
const OWNERS_OF_TICKET = (ticketId: string) =>
  `id = (select user_id from tickets where id = ${ticketId}) or email = (select email from tickets where id = ${ticketId})`;
/** The users whose list shows any ticket `t` meeting the condition. */
const OWNERS_OF_TICKETS_WHERE = (condition: string) =>
  `id in (select t.user_id from tickets t where ${condition}) or email in (select t.email from tickets t where ${condition})`;
const TAGGED = (tagId: string) => `t.id in (select ticket_id from ticket_tag where tag_id = ${tagId})`;

const SQLITE_TRIGGERS: Record<string, string> = {
  tickets_version_on_insert: `after insert on tickets begin ${RAISE} id = new.user_id or email = new.email; end`,
  tickets_version_on_update: `after update on tickets begin ${RAISE} id in (old.user_id, new.user_id) or email in (old.email, new.email); end`,
  tickets_version_on_delete: `after delete on tickets begin ${RAISE} id = old.user_id or email = old.email; end`,
  ticket_tag_version_on_insert: `after insert on ticket_tag begin ${RAISE} ${OWNERS_OF_TICKET('new.ticket_id')}; end`,
  ticket_tag_version_on_delete: `after delete on ticket_tag begin ${RAISE} ${OWNERS_OF_TICKET('old.ticket_id')}; end`,
  tags_version_on_rename: `after update of name on tags begin ${RAISE} ${OWNERS_OF_TICKETS_WHERE(TAGGED('new.id'))}; end`,
  users_version_on_rename: `after update of first_name, last_name on users begin ${RAISE} ${OWNERS_OF_TICKETS_WHERE('t.assignee_id = new.id')}; end`,
};

// PostgreSQL runs a function per trigger; OLD is only read for UPDATE and DELETE, NEW for INSERT and UPDATE.
const PG_FUNCTIONS: Record<string, { on: string; body: string }> = {
  tickets_raise_tickets_version: {
    on: 'after insert or update or delete on tickets',
    body: `
      if tg_op = 'INSERT' then ${RAISE} id = new.user_id or email = new.email;
      elsif tg_op = 'UPDATE' then ${RAISE} id in (old.user_id, new.user_id) or email in (old.email, new.email);
      else ${RAISE} id = old.user_id or email = old.email;
      end if;`,
  },
  ticket_tag_raise_tickets_version: {
    on: 'after insert or delete on ticket_tag',
    body: `
      if tg_op = 'INSERT' then ${RAISE} ${OWNERS_OF_TICKET('new.ticket_id')};
      else ${RAISE} ${OWNERS_OF_TICKET('old.ticket_id')};
      end if;`,
  },
  tags_raise_tickets_version: {
    on: 'after update of name on tags',
    body: `${RAISE} ${OWNERS_OF_TICKETS_WHERE(TAGGED('new.id'))};`,
  },
  users_raise_tickets_version: {
    on: 'after update of first_name, last_name on users',
    body: `${RAISE} ${OWNERS_OF_TICKETS_WHERE('t.assignee_id = new.id')};`,
  },
};

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('tickets_version', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  if (isPostgres(db)) {
    for (const [name, { on, body }] of Object.entries(PG_FUNCTIONS)) {
      await sql
        .raw(`create function ${name}() returns trigger language plpgsql as $$ begin ${body} return null; end $$`)
        .execute(db);
      await sql.raw(`create trigger ${name} ${on} for each row execute function ${name}()`).execute(db);
    }
  } else {
    for (const [name, definition] of Object.entries(SQLITE_TRIGGERS))
      await sql.raw(`create trigger ${name} ${definition}`).execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    for (const [name, { on }] of Object.entries(PG_FUNCTIONS)) {
      const table = on.split(' on ')[1]!;
      await sql.raw(`drop trigger ${name} on ${table}`).execute(db);
      await sql.raw(`drop function ${name}()`).execute(db);
    }
  } else {
    for (const name of Object.keys(SQLITE_TRIGGERS)) await sql.raw(`drop trigger ${name}`).execute(db);
  }
  await db.schema.alterTable('users').dropColumn('tickets_version').execute();
}
