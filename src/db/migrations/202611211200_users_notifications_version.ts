// A counter on each user that every change to their notifications (new, read, deleted) raises in
// the same transaction. GET /api/notifications keeps the answer it last built for a user and
// reuses it while the counter is unchanged, which every instance can check with one primary-key
// read instead of reading the list again.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('notifications_version', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('notifications_version').execute();
}
