// The email half of "the caller's tickets" is email = ? AND user_id is not the caller's. With
// user_id only in the table, SQLite read the table row of every ticket with that email to test
// it (a user with 100 tickets: 100 row reads per page and per count). With user_id at the end of
// the index the test is made on the index entries, and the count never touches the table.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('tickets_email_created_user_index')
    .on('tickets')
    .columns(['email', 'created_at', 'id', 'user_id'])
    .execute();
  await db.schema.dropIndex('tickets_email_created_index').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('tickets_email_created_index')
    .on('tickets')
    .columns(['email', 'created_at', 'id'])
    .execute();
  await db.schema.dropIndex('tickets_email_created_user_index').execute();
}
