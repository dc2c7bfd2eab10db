// The staff console's sign-in: a role per user, one-time sign-in links and cookie sessions.
// - users.role: member, support or admin. Backfilled from is_admin. is_admin stays the record of
//   administrator rights that older code and the platform's integration read and write; the
//   application keeps both in step (role admin <=> is_admin 1), and a reader treats is_admin 1 as
//   admin whatever role says, so a write of is_admin alone (SQL, an older client) still counts.
// - console_links: single-use sign-in links; only the SHA-256 of the secret is stored.
// - console_sessions: the console's cookie sessions; only the SHA-256 of the cookie is stored,
//   with an idle and an absolute expiry and a revocation time.
import { sql, type Kysely } from 'kysely';
import { timestampType, withSerialId } from '../schema-helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('role', 'varchar(16)', (c) => c.notNull().defaultTo('member'))
    .execute();
  await sql`update users set role = 'admin' where is_admin = 1`.execute(db);

  await withSerialId(db, db.schema.createTable('console_links'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'char(64)', (c) => c.notNull().unique())
    .addColumn('created_at', timestampType(db), (c) => c.notNull())
    .addColumn('expires_at', timestampType(db), (c) => c.notNull())
    .addColumn('used_at', timestampType(db))
    .execute();
  await db.schema
    .createIndex('console_links_user_created_index')
    .on('console_links')
    .columns(['user_id', 'created_at'])
    .execute();

  await withSerialId(db, db.schema.createTable('console_sessions'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'char(64)', (c) => c.notNull().unique())
    .addColumn('user_agent', 'varchar(255)')
    .addColumn('created_at', timestampType(db), (c) => c.notNull())
    .addColumn('last_seen_at', timestampType(db), (c) => c.notNull())
    .addColumn('idle_expires_at', timestampType(db), (c) => c.notNull())
    .addColumn('expires_at', timestampType(db), (c) => c.notNull())
    .addColumn('revoked_at', timestampType(db))
    .execute();
  await db.schema.createIndex('console_sessions_user_index').on('console_sessions').column('user_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('console_sessions').execute();
  await db.schema.dropTable('console_links').execute();
  await db.schema.alterTable('users').dropColumn('role').execute();
}
