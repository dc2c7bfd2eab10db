// The next steps of a knowledge-base article: a JSON array of the keys of the articles a member
// usually asks about after reading it (after a cancellation, how long the refund takes), in any
// category. The assistant leans to them when a follow-up is vague. Existing articles get "[]".
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('kb_articles')
    .addColumn('next', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('kb_articles').dropColumn('next').execute();
}
