// SQL of live notifications (GET /api/notifications/stream): stream tokens, the catch-up read a
// stream sends after a change or a reconnect, and the versions SQLite instances poll.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { toRecord, UNREAD_LIST_LIMIT, type NotificationRecord } from './repository.js';

/** A notification with its cursor: seq, the insertion order, which the stream sends as the event id. */
export interface CursoredNotification {
  seq: number;
  notification: NotificationRecord;
}

/** Stores a stream token's hash; drops the expired ones on the way (they can never be used). */
export async function insertStreamToken(
  db: Kysely<Database>,
  tokenHash: string,
  userId: number,
  expiresAt: string,
  now: string,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('notification_stream_tokens').where('expires_at', '<', now).execute();
    await trx
      .insertInto('notification_stream_tokens')
      .values({ token_hash: tokenHash, user_id: userId, expires_at: expiresAt })
      .execute();
  });
}

/** Removes the token (so it cannot be used twice) and answers whose it was and until when it held. */
export async function takeStreamToken(
  db: Kysely<Database>,
  tokenHash: string,
): Promise<{ user_id: number; expires_at: string } | undefined> {
  return db
    .deleteFrom('notification_stream_tokens')
    .where('token_hash', '=', tokenHash)
    .returning(['user_id', 'expires_at'])
    .executeTakeFirst();
}

/** The highest cursor among the user's notifications (read or not); 0 when they have none. */
export async function latestCursor(db: Kysely<Database>, userId: number): Promise<number> {
  const row = await db
    .selectFrom('notifications')
    .select((eb) => eb.fn.max('seq').as('seq'))
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(row?.seq ?? 0);
}

/** Whether the cursor names one of the user's notifications (a resume point they may use). */
export async function ownsCursor(db: Kysely<Database>, userId: number, seq: number): Promise<boolean> {
  const row = await db
    .selectFrom('notifications')
    .select('seq')
    .where('user_id', '=', userId)
    .where('seq', '=', seq)
    .executeTakeFirst();
  return row !== undefined;
}

/** The user's unread notifications after the cursor, oldest first, at most the list's limit. */
export async function unreadAfter(db: Kysely<Database>, userId: number, seq: number): Promise<CursoredNotification[]> {
  const rows = await db
    .selectFrom('notifications')
    .select(['seq', 'id', 'type', 'data', 'read_at', 'created_at'])
    .where('user_id', '=', userId)
    .where('read_at', 'is', null)
    .where('seq', '>', seq)
    .orderBy('seq', 'asc')
    .limit(UNREAD_LIST_LIMIT)
    .execute();
  return rows.map(({ seq: cursor, ...row }) => ({ seq: Number(cursor), notification: toRecord(row) }));
}

/** The notifications versions of these users (answer_versions; a user without a row is absent). */
export async function notificationVersions(
  db: Kysely<Database>,
  userIds: readonly number[],
): Promise<Map<number, number>> {
  const versions = new Map<number, number>();
  for (let i = 0; i < userIds.length; i += 500) {
    const rows = await db
      .selectFrom('answer_versions')
      .select(['user_id', 'version'])
      .where('scope', '=', 'notifications')
      .where('user_id', 'in', userIds.slice(i, i + 500))
      .execute();
    for (const row of rows) versions.set(Number(row.user_id), Number(row.version));
  }
  return versions;
}
