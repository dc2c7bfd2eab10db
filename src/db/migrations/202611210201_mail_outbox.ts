import type { Kysely } from 'kysely';
import { timestampType, withSerialId } from '../schema-helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);
  await withSerialId(db, db.schema.createTable('mail_outbox'))
    .addColumn('to_address', 'varchar(255)', (c) => c.notNull())
    .addColumn('subject', 'varchar(255)', (c) => c.notNull())
    .addColumn('text_body', 'text', (c) => c.notNull())
    .addColumn('html_body', 'text')
    // pending -> sent, or failed after the last attempt.
    .addColumn('status', 'varchar(10)', (c) => c.notNull().defaultTo('pending'))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', ts, (c) => c.notNull())
    // A worker owns a row until this time; another worker may claim it only after.
    .addColumn('locked_until', ts)
    .addColumn('last_error', 'text')
    .addColumn('sent_at', ts)
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('mail_outbox_due_index')
    .on('mail_outbox')
    .columns(['status', 'next_attempt_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('mail_outbox').execute();
}
