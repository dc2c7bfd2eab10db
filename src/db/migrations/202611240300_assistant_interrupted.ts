// Streamed chat: when the client goes away while the answer is being written, the model
// call is aborted and what had been written so far is saved as the assistant's message with
// interrupted = 1, so the conversation shows where it stopped. Every other message has 0.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('assistant_messages')
    .addColumn('interrupted', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('assistant_messages').dropColumn('interrupted').execute();
}
