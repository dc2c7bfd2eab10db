// Replaces the (user_id) index of notifications with (user_id, read_at). Without statistics (a
// database nobody has run ANALYZE on) SQLite chose the (user_id) index for "count the unread of a
// user" and read every notification of that user, however many were read.
// With read_at in the index the count reads only the unread entries and never the table; the
// index still serves deleting a user's notifications.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('notifications_user_read_index')
    .on('notifications')
    .columns(['user_id', 'read_at'])
    .execute();
  await db.schema.dropIndex('notifications_user_id_index').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('notifications_user_id_index').on('notifications').column('user_id').execute();
  await db.schema.dropIndex('notifications_user_read_index').execute();
}
