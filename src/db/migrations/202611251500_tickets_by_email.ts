// Mail as a channel of the tickets: the outbox learns the headers that thread a ticket's mail
// (Message-ID, In-Reply-To, References, Reply-To) and which ticket a mail belongs to, and a bounce
// can mark it. inbound_mail records every message received (at most once per Message-ID): what
// became of it, the original text for staff, and the raw message of mail held for review.
// mail_inbox_state is where the IMAP fetcher stands in a mailbox (UIDVALIDITY, last UID), written in
// the transaction of each message; mail_leases lets one instance fetch at a time.
import type { Kysely } from 'kysely';
import { timestampType, withSerialId } from '../schema-helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);
  await db.schema.alterTable('mail_outbox').addColumn('message_id', 'varchar(255)').execute();
  await db.schema.alterTable('mail_outbox').addColumn('in_reply_to', 'varchar(255)').execute();
  await db.schema.alterTable('mail_outbox').addColumn('references_header', 'text').execute();
  await db.schema.alterTable('mail_outbox').addColumn('reply_to', 'varchar(255)').execute();
  await db.schema
    .alterTable('mail_outbox')
    .addColumn('auto_submitted', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('mail_outbox').addColumn('ticket_id', 'integer').execute();
  await db.schema.alterTable('mail_outbox').addColumn('bounced_at', ts).execute();
  await db.schema.createIndex('mail_outbox_message_id_index').on('mail_outbox').column('message_id').execute();

  await withSerialId(db, db.schema.createTable('inbound_mail'))
    .addColumn('message_id', 'varchar(255)', (c) => c.notNull().unique())
    .addColumn('from_address', 'varchar(255)')
    .addColumn('subject', 'varchar(255)', (c) => c.notNull())
    // comment, ticket, held, accepted, rejected, deferred, ignored, bounce
    .addColumn('status', 'varchar(12)', (c) => c.notNull())
    .addColumn('reason', 'varchar(40)')
    .addColumn('ticket_id', 'integer')
    .addColumn('comment_id', 'integer')
    .addColumn('outbox_id', 'integer')
    .addColumn('original_text', 'text', (c) => c.notNull())
    // Base64 of the message, kept only while staff may still apply it (held, deferred).
    .addColumn('raw_message', 'text')
    .addColumn('decided_by', 'integer')
    .addColumn('decided_at', ts)
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('inbound_mail_sender_index')
    .on('inbound_mail')
    .columns(['from_address', 'created_at'])
    .execute();
  await db.schema.createIndex('inbound_mail_status_index').on('inbound_mail').columns(['status', 'id']).execute();

  await db.schema
    .createTable('mail_inbox_state')
    .addColumn('mailbox', 'varchar(255)', (c) => c.primaryKey())
    .addColumn('uid_validity', 'varchar(20)', (c) => c.notNull())
    .addColumn('last_uid', 'integer', (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('mail_leases')
    .addColumn('name', 'varchar(100)', (c) => c.primaryKey())
    .addColumn('holder', 'varchar(100)', (c) => c.notNull())
    .addColumn('expires_at', ts, (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('mail_leases').execute();
  await db.schema.dropTable('mail_inbox_state').execute();
  await db.schema.dropTable('inbound_mail').execute();
  await db.schema.dropIndex('mail_outbox_message_id_index').execute();
  for (const column of [
    'bounced_at',
    'ticket_id',
    'auto_submitted',
    'reply_to',
    'references_header',
    'in_reply_to',
    'message_id',
  ])
    await db.schema.alterTable('mail_outbox').dropColumn(column).execute();
}
