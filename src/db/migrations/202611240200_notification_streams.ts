// Live notifications. Two parts:
// - notification_stream_tokens: single-use tickets a browser's EventSource (which cannot send an
//   Authorization header) puts in the stream URL. Only the SHA-256 of a token is stored; a token
//   is consumed by deleting its row, so a second use finds nothing.
// - on PostgreSQL, a trigger on answer_versions that signals every change of a user's
//   notifications (the notifications triggers of 202611240100 raise that version for each insert,
//   read and delete, whoever writes) on the channel platform_notifications, with the payload
//   "<schema> <user id>". NOTIFY is delivered at commit, never for a rolled-back change, and
//   identical payloads in one transaction arrive once. Instances LISTEN (notifications/live/).
//   SQLite has no such channel: instances poll the same versions (live/signals.ts).
import { sql, type Kysely } from 'kysely';
import { isPostgres, timestampType } from '../schema-helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('notification_stream_tokens')
    .addColumn('token_hash', 'char(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('expires_at', timestampType(db), (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('notification_stream_tokens_expires_index')
    .on('notification_stream_tokens')
    .column('expires_at')
    .execute();
  if (isPostgres(db)) {
    await sql
      .raw(
        'create function av_notifications_signal() returns trigger language plpgsql as $$ begin ' +
          "perform pg_notify('platform_notifications', current_schema() || ' ' || new.user_id::text); return null; end $$",
      )
      .execute(db);
    await sql
      .raw(
        'create trigger av_notifications_signal after insert or update on answer_versions for each row when ' +
          "(new.scope = 'notifications') execute function av_notifications_signal()",
      )
      .execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql.raw('drop trigger av_notifications_signal on answer_versions').execute(db);
    await sql.raw('drop function av_notifications_signal()').execute(db);
  }
  await db.schema.dropTable('notification_stream_tokens').execute();
}
