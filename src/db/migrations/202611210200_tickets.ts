import type { Kysely } from 'kysely';
import { timestampType, withSerialId } from '../schema-helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);

  await withSerialId(db, db.schema.createTable('tags'))
    .addColumn('name', 'varchar(100)', (c) => c.notNull().unique())
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();

  await withSerialId(db, db.schema.createTable('tickets'))
    .addColumn('tracking_code', 'varchar(16)', (c) => c.notNull().unique())
    // Nullable: escalations may come from a visitor without an account.
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    // The owner's address, lower-cased: tickets opened for an address match its account later.
    .addColumn('email', 'varchar(255)')
    .addColumn('subject', 'varchar(255)', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(20)', (c) => c.notNull())
    .addColumn('priority', 'varchar(10)', (c) => c.notNull())
    .addColumn('category', 'varchar(255)')
    .addColumn('source', 'varchar(20)', (c) => c.notNull().defaultTo('api'))
    .addColumn('assignee_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('sla_deadline', ts, (c) => c.notNull())
    .addColumn('first_response_due_at', ts, (c) => c.notNull())
    .addColumn('first_response_at', ts)
    .addColumn('resolved_at', ts)
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  // The caller's list is "user_id = ? OR email = ?" newest first: one index per side of the OR,
  // each already in list order, so a page costs the caller's own rows, never the table.
  await db.schema
    .createIndex('tickets_user_created_index')
    .on('tickets')
    .columns(['user_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('tickets_email_created_index')
    .on('tickets')
    .columns(['email', 'created_at', 'id'])
    .execute();
  // The staff list: all tickets newest first, optionally by status.
  await db.schema.createIndex('tickets_created_index').on('tickets').columns(['created_at', 'id']).execute();
  await db.schema
    .createIndex('tickets_status_created_index')
    .on('tickets')
    .columns(['status', 'created_at', 'id'])
    .execute();

  await withSerialId(db, db.schema.createTable('ticket_comments'))
    .addColumn('ticket_id', 'integer', (c) => c.notNull().references('tickets.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('is_staff', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('ticket_comments_ticket_index')
    .on('ticket_comments')
    .columns(['ticket_id', 'id'])
    .execute();

  await withSerialId(db, db.schema.createTable('ticket_attachments'))
    .addColumn('ticket_id', 'integer', (c) => c.notNull().references('tickets.id').onDelete('cascade'))
    .addColumn('comment_id', 'integer', (c) => c.references('ticket_comments.id').onDelete('cascade'))
    .addColumn('file_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('file_type', 'varchar(120)', (c) => c.notNull())
    .addColumn('file_size', 'integer', (c) => c.notNull())
    .addColumn('storage_key', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('ticket_attachments_ticket_index')
    .on('ticket_attachments')
    .columns(['ticket_id', 'id'])
    .execute();
  await db.schema
    .createIndex('ticket_attachments_comment_index')
    .on('ticket_attachments')
    .column('comment_id')
    .execute();

  await db.schema
    .createTable('ticket_tag')
    .addColumn('ticket_id', 'integer', (c) => c.notNull().references('tickets.id').onDelete('cascade'))
    .addColumn('tag_id', 'integer', (c) => c.notNull().references('tags.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('ticket_tag_pkey', ['ticket_id', 'tag_id'])
    .execute();
  await db.schema.createIndex('ticket_tag_tag_index').on('ticket_tag').column('tag_id').execute();

  await withSerialId(db, db.schema.createTable('ticket_activities'))
    .addColumn('ticket_id', 'integer', (c) => c.notNull().references('tickets.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('type', 'varchar(30)', (c) => c.notNull())
    .addColumn('field', 'varchar(30)')
    .addColumn('old_value', 'text')
    .addColumn('new_value', 'text')
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('ticket_activities_ticket_index')
    .on('ticket_activities')
    .columns(['ticket_id', 'id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['ticket_activities', 'ticket_tag', 'ticket_attachments', 'ticket_comments', 'tickets', 'tags']) {
    await db.schema.dropTable(table).execute();
  }
}
