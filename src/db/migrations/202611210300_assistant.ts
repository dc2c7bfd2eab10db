import type { Kysely } from 'kysely';
import { timestampType, withSerialId } from '../schema-helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);
  await withSerialId(db, db.schema.createTable('assistant_conversations'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('title', 'varchar(255)', (c) => c.notNull())
    .addColumn('agent_type', 'varchar(16)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('active'))
    // Kept on the conversation so the list needs no per-row lookup of the newest message.
    .addColumn('last_message', 'text')
    // Set once the conversation is escalated; escalating again returns this ticket.
    .addColumn('escalated_ticket_id', 'integer')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('assistant_conversations_user_status_updated_index')
    .on('assistant_conversations')
    .columns(['user_id', 'status', 'updated_at'])
    .execute();

  await withSerialId(db, db.schema.createTable('assistant_messages'))
    .addColumn('conversation_id', 'integer', (c) =>
      c.notNull().references('assistant_conversations.id').onDelete('cascade'),
    )
    .addColumn('role', 'varchar(16)', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    // The agent that wrote an assistant message; null on the user's messages.
    .addColumn('agent', 'varchar(16)')
    .addColumn('request_id', 'varchar(64)')
    .addColumn('response_time_ms', 'integer')
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('assistant_messages_conversation_index')
    .on('assistant_messages')
    .columns(['conversation_id', 'id'])
    .execute();

  await withSerialId(db, db.schema.createTable('assistant_feedback'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('type', 'varchar(32)', (c) => c.notNull())
    .addColumn('subject', 'varchar(200)', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('rating', 'integer')
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('assistant_feedback_type_index')
    .on('assistant_feedback')
    .columns(['type', 'id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('assistant_feedback').execute();
  await db.schema.dropTable('assistant_messages').execute();
  await db.schema.dropTable('assistant_conversations').execute();
}
