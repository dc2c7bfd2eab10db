// Users mirrored from the platform through PUT /api/admin/users/{id}: an `active` flag (0 makes
// every token of the user answer 401; the token lookup reads it on every request), and a trigger
// that raises the user's tickets_version when their email changes. A ticket belongs to an account
// when its user id or its email matches (the spec's rule), so a new address changes which tickets
// the user's list shows, and the answers GET /api/tickets and /stats keep per user (see migration
// 202611211300) must not be reused across the change, whoever makes it (the API, the CLI or SQL).
import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../schema-helpers.js';

const RAISE_OWN = 'update users set tickets_version = tickets_version + 1 where id = new.id;';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  if (isPostgres(db)) {
    await sql
      .raw(
        `create function users_email_raise_tickets_version() returns trigger language plpgsql as $$ begin ${RAISE_OWN} return null; end $$`,
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
        `create trigger users_version_on_email after update of email on users when old.email is not new.email begin ${RAISE_OWN} end`,
      )
      .execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql.raw('drop trigger users_email_raise_tickets_version on users').execute(db);
    await sql.raw('drop function users_email_raise_tickets_version()').execute(db);
  } else {
    await sql.raw('drop trigger users_version_on_email').execute(db);
  }
  await db.schema.alterTable('users').dropColumn('active').execute();
}
