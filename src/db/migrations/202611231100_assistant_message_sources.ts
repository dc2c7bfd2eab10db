// The knowledge-base passages an assistant answer was made from, kept with the message so the
// conversation shows them later: a JSON array of {id, title}, best first ("[]" for an answer that
// used none). Messages saved before this migration, and users' messages, keep NULL: read as [].
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('assistant_messages').addColumn('sources', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('assistant_messages').dropColumn('sources').execute();
}
