// One invalidation scheme for every answer the HTTP edge reuses (http/answer-reuse.ts): a version
// per user and scope in answer_versions, raised by database triggers in the transaction of every
// change to the data the answer shows. Until now tickets had triggers raising users.tickets_version
// (202611211300, 202611231800) and notifications had application code raising
// users.notifications_version (202611211200); both counters leave the users table, which no longer
// carries other features' columns. Triggers for both, because they see every writer: any
// instance, the CLI, a foreign key that sets null, SQL typed by an operator.
//
// tickets: every change to a ticket a user's list shows (their user id or their email on it, the
//   ownership rule of tickets/access.ts), to its tags, to a tag's name, to its assignee's name,
//   and to the user's own email (which changes which tickets are theirs);
// notifications: every insert, update (read) and delete of the user's notifications.
// A missing row reads as version 0; the first raise inserts version 1.
import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../schema-helpers.js';
import { up as usersTicketsVersionUp } from './202611211300_users_tickets_version.js';

/** Raises the version of `scope` for every user the condition (on users) selects. */
const raise = (scope: 'tickets' | 'notifications', usersWhere: string) =>
  `insert into answer_versions (user_id, scope, version) select id, '${scope}', 1 from users where ${usersWhere} ` +
  'on conflict (user_id, scope) do update set version = answer_versions.version + 1;';

/** The users owning ticket `ref` (user_id = users.id or email = users.email). */
const OWNERS_OF_TICKET = (ticketId: string) =>
  `id = (select user_id from tickets where id = ${ticketId}) or email = (select email from tickets where id = ${ticketId})`;
const OWNERS_OF_TICKETS_WHERE = (condition: string) =>
  `id in (select t.user_id from tickets t where ${condition}) or email in (select t.email from tickets t where ${condition})`;
const TAGGED = (tagId: string) => `t.id in (select ticket_id from ticket_tag where tag_id = ${tagId})`;

interface Trigger {
  table: string;
  /** The events, as both dialects write them. */
  on: string;
  /** SQLite's WHEN clause (PostgreSQL gets the same as its WHEN). */
  when?: { sqlite: string; postgres: string };
  /** Per operation, the statement. */
  insert?: string;
  update?: string;
  delete?: string;
}

const TRIGGERS: Record<string, Trigger> = {
  av_tickets: {
    table: 'tickets',
    on: 'insert or update or delete',
    insert: raise('tickets', 'id = new.user_id or email = new.email'),
    update: raise('tickets', 'id in (old.user_id, new.user_id) or email in (old.email, new.email)'),
    delete: raise('tickets', 'id = old.user_id or email = old.email'),
  },
  av_ticket_tag: {
    table: 'ticket_tag',
    on: 'insert or delete',
    insert: raise('tickets', OWNERS_OF_TICKET('new.ticket_id')),
    delete: raise('tickets', OWNERS_OF_TICKET('old.ticket_id')),
  },
  av_tags_rename: {
    table: 'tags',
    on: 'update of name',
    update: raise('tickets', OWNERS_OF_TICKETS_WHERE(TAGGED('new.id'))),
  },
  av_users_rename: {
    table: 'users',
    on: 'update of first_name, last_name',
    update: raise('tickets', OWNERS_OF_TICKETS_WHERE('t.assignee_id = new.id')),
  },
  av_users_email: {
    table: 'users',
    on: 'update of email',
    when: { sqlite: 'old.email is not new.email', postgres: 'old.email is distinct from new.email' },
    update: raise('tickets', 'id = new.id'),
  },
  av_notifications: {
    table: 'notifications',
    on: 'insert or update or delete',
    insert: raise('notifications', 'id = new.user_id'),
    update: raise('notifications', 'id in (old.user_id, new.user_id)'),
    delete: raise('notifications', 'id = old.user_id'),
  },
};

const OPERATIONS = ['insert', 'update', 'delete'] as const;

async function createTriggers(db: Kysely<any>): Promise<void> {
  for (const [name, trigger] of Object.entries(TRIGGERS)) {
    const ops = OPERATIONS.filter((op) => trigger[op]);
    if (isPostgres(db)) {
      const body =
        ops.length === 1
          ? trigger[ops[0]!]!
          : `${ops
              .map((op, i) => `${i === 0 ? 'if' : 'elsif'} tg_op = '${op.toUpperCase()}' then ${trigger[op]}`)
              .join(' ')} end if;`;
      await sql
        .raw(`create function ${name}() returns trigger language plpgsql as $$ begin ${body} return null; end $$`)
        .execute(db);
      const when = trigger.when ? ` when (${trigger.when.postgres})` : '';
      await sql
        .raw(
          `create trigger ${name} after ${trigger.on} on ${trigger.table} for each row${when} execute function ${name}()`,
        )
        .execute(db);
    } else {
      // SQLite has one event per trigger.
      for (const op of ops) {
        const event = op === 'update' ? trigger.on.split(' or ').find((e) => e.startsWith('update'))! : op;
        const when = trigger.when ? ` when ${trigger.when.sqlite}` : '';
        await sql
          .raw(`create trigger ${name}_${op} after ${event} on ${trigger.table}${when} begin ${trigger[op]} end`)
          .execute(db);
      }
    }
  }
}

async function dropTriggers(db: Kysely<any>): Promise<void> {
  for (const [name, trigger] of Object.entries(TRIGGERS)) {
    if (isPostgres(db)) {
      await sql.raw(`drop trigger ${name} on ${trigger.table}`).execute(db);
      await sql.raw(`drop function ${name}()`).execute(db);
    } else {
      for (const op of OPERATIONS.filter((o) => trigger[o])) await sql.raw(`drop trigger ${name}_${op}`).execute(db);
    }
  }
}

/** The triggers of 202611211300 and 202611231800 that raised users.tickets_version. */
const OLD_SQLITE_TRIGGERS = [
  'tickets_version_on_insert',
  'tickets_version_on_update',
  'tickets_version_on_delete',
  'ticket_tag_version_on_insert',
  'ticket_tag_version_on_delete',
  'tags_version_on_rename',
  'users_version_on_rename',
  'users_version_on_email',
];
const OLD_PG_TRIGGERS: Record<string, string> = {
  tickets_raise_tickets_version: 'tickets',
  ticket_tag_raise_tickets_version: 'ticket_tag',
  tags_raise_tickets_version: 'tags',
  users_raise_tickets_version: 'users',
  users_email_raise_tickets_version: 'users',
};

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('answer_versions')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('answer_versions_pk', ['user_id', 'scope'])
    // SQLite: the row lives in the primary key's b-tree, so the read on every reused answer is one
    // search (a rowid table would search the key's index, then the table).
    .$call((table) => (isPostgres(db) ? table : table.modifyEnd(sql`without rowid`)))
    .execute();
  // Counters carry over, so an answer held by a running instance is not taken for current.
  await sql`insert into answer_versions (user_id, scope, version) select id, 'tickets', tickets_version + 1 from users`.execute(
    db,
  );
  await sql`insert into answer_versions (user_id, scope, version) select id, 'notifications', notifications_version + 1 from users`.execute(
    db,
  );
  if (isPostgres(db)) {
    for (const [name, table] of Object.entries(OLD_PG_TRIGGERS)) {
      await sql.raw(`drop trigger ${name} on ${table}`).execute(db);
      await sql.raw(`drop function ${name}()`).execute(db);
    }
  } else {
    for (const name of OLD_SQLITE_TRIGGERS) await sql.raw(`drop trigger ${name}`).execute(db);
  }
  await db.schema.alterTable('users').dropColumn('tickets_version').execute();
  await db.schema.alterTable('users').dropColumn('notifications_version').execute();
  await createTriggers(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await dropTriggers(db);
  await db.schema.dropTable('answer_versions').execute();
  await db.schema
    .alterTable('users')
    .addColumn('notifications_version', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // The tickets column and its triggers as 202611211300 made them, and the email trigger of 202611231800.
  await usersTicketsVersionUp(db);
  const raiseOwn = 'update users set tickets_version = tickets_version + 1 where id = new.id;';
  if (isPostgres(db)) {
    await sql
      .raw(
        `create function users_email_raise_tickets_version() returns trigger language plpgsql as $$ begin ${raiseOwn} return null; end $$`,
      )
      .execute(db);
    await sql
      .raw(
        'create trigger users_email_raise_tickets_version after update of email on users for each row when ' +
          '(old.email is distinct from new.email) execute function users_email_raise_tickets_version()',
      )
      .execute(db);
  } else {
    await sql
      .raw(
        `create trigger users_version_on_email after update of email on users when old.email is not new.email begin ${raiseOwn} end`,
      )
      .execute(db);
  }
}
