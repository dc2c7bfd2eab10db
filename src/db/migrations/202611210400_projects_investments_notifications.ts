import { sql, type Kysely } from 'kysely';
import { isPostgres, timestampType } from '../schema-helpers.js';

// Projects and investments are mirrored from the platform, so their ids come from it: explicit
// integer keys, never generated here. Notifications carry a UUID for clients and an internal
// sequence number that orders notifications created within the same millisecond.
export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);
  const pg = isPostgres(db);

  await db.schema
    .createTable('projects')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('owner_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('title', 'varchar(255)', (c) => c.notNull())
    .addColumn('status', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('projects_owner_id_index').on('projects').column('owner_id').execute();

  await db.schema
    .createTable('investments')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id'))
    .addColumn('investor_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('amount', 'bigint', (c) => c.notNull().check(sql`amount >= 0`))
    .addColumn('status', 'varchar(32)', (c) => c.notNull())
    .addColumn('notes', 'text')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('investments_project_id_index').on('investments').column('project_id').execute();
  await db.schema.createIndex('investments_investor_id_index').on('investments').column('investor_id').execute();

  await (pg
    ? db.schema
        .createTable('project_revision_requests')
        .addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    : db.schema
        .createTable('project_revision_requests')
        .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
  )
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('revision_notes', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('project_revision_requests_project_id_index')
    .on('project_revision_requests')
    .column('project_id')
    .execute();

  await (pg
    ? db.schema
        .createTable('notifications')
        .addColumn('seq', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
        .addColumn('id', 'uuid', (c) => c.notNull().unique())
    : db.schema
        .createTable('notifications')
        .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
        .addColumn('id', 'varchar(36)', (c) => c.notNull().unique())
  )
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('type', 'varchar(64)', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('read_at', ts)
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  // "The unread of a user, newest first": a partial index holds only unread rows, so it stays
  // small however many read notifications pile up, and answers list, count and read-all.
  await db.schema
    .createIndex('notifications_unread_index')
    .on('notifications')
    .columns(['user_id', 'created_at desc', 'seq desc'])
    .where(sql.ref('read_at'), 'is', null)
    .execute();
  // Every notification of a user (read ones included), for deleting a user.
  await db.schema.createIndex('notifications_user_id_index').on('notifications').column('user_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('notifications').execute();
  await db.schema.dropTable('project_revision_requests').execute();
  await db.schema.dropTable('investments').execute();
  await db.schema.dropTable('projects').execute();
}
