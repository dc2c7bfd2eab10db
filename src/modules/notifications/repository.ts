// SQL of the notifications table. Every "unread of a user" query is shaped to use the partial
// index notifications_unread_index (user_id, created_at desc, seq desc) where read_at is null.
// Every change raises the user's notifications version by a trigger (migration 202611240100).
import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { compiledQuery } from '../../db/compiled.js';
import type { Static } from 'typebox';
import type { Database } from '../../db/schema.js';
import { ownedBy } from './access.js';
import { pendingDataText, type DataText } from './data-text.js';
import type { NotificationType, PendingNotification } from './events.js';
import type { UnreadItem } from './list-json.js';
import type { Notification } from './schemas.js';

/** A notification as the API shows it; data is parsed from its JSON column. */
export type NotificationRecord = Static<typeof Notification>;

/** GET /api/notifications answers at most this many unread notifications, the newest. */
export const UNREAD_LIST_LIMIT = 100;

const COLUMNS = ['id', 'type', 'data', 'read_at', 'created_at'] as const;

type Row = { id: string; type: NotificationType; data: DataText; read_at: string | null; created_at: string };

export function toRecord(row: Row): NotificationRecord {
  // Rows are written only by insertNotifications from the typed builders, so the stored JSON and
  // type have the shapes the schema declares.
  return {
    id: row.id,
    type: row.type,
    data: JSON.parse(row.data) as NotificationRecord['data'],
    read_at: row.read_at,
    created_at: row.created_at,
  };
}

/** Writes the notifications (inside the caller's transaction); returns their ids in order. */
export async function insertNotifications(
  db: Kysely<Database>,
  pending: PendingNotification[],
  createdAt: string,
): Promise<string[]> {
  if (pending.length === 0) return [];
  const rows = pending.map((n) => ({
    id: randomUUID(),
    user_id: n.user_id,
    type: n.type,
    data: pendingDataText(n),
    created_at: createdAt,
  }));
  await db.insertInto('notifications').values(rows).execute();
  return rows.map((r) => r.id);
}

// read_at is null by the WHERE; data is read as the text stored (data-text.ts), not parsed: the
// list answer places it as it is (list-json.ts).
const unreadPage = compiledQuery('notifications.unreadPage', (db, userId: number) =>
  db
    .selectFrom('notifications')
    .select(['id', 'type', 'data', 'created_at'])
    .where(ownedBy(userId))
    .where('read_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('seq', 'desc')
    // A literal: a bound LIMIT made SQLite compile the statement again on every run.
    .limit(sql.lit(UNREAD_LIST_LIMIT)),
);

/** The user's unread notifications, newest first, at most UNREAD_LIST_LIMIT. */
export async function listUnread(db: Kysely<Database>, userId: number): Promise<UnreadItem[]> {
  return unreadPage(db, userId);
}

const unreadCount = compiledQuery('notifications.unreadCount', (db, userId: number) =>
  db
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where(ownedBy(userId))
    .where('read_at', 'is', null),
);

export async function countUnread(db: Kysely<Database>, userId: number): Promise<number> {
  const [row] = await unreadCount(db, userId);
  return Number(row!.count);
}

/** The notification with this id if it belongs to the user. */
export async function findOwned(
  db: Kysely<Database>,
  userId: number,
  id: string,
): Promise<NotificationRecord | undefined> {
  const row = await db
    .selectFrom('notifications')
    .select(COLUMNS)
    .where('id', '=', id)
    .where(ownedBy(userId))
    .executeTakeFirst();
  return row && toRecord(row);
}

/** Sets read_at on the user's notification if it is still unread; returns the rows changed (0 or 1). */
export async function markRead(db: Kysely<Database>, userId: number, id: string, readAt: string): Promise<number> {
  const result = await db
    .updateTable('notifications')
    .set({ read_at: readAt })
    .where('id', '=', id)
    .where(ownedBy(userId))
    .where('read_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function markAllRead(db: Kysely<Database>, userId: number, readAt: string): Promise<number> {
  const result = await db
    .updateTable('notifications')
    .set({ read_at: readAt })
    .where(ownedBy(userId))
    .where('read_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function deleteOwned(db: Kysely<Database>, userId: number, id: string): Promise<number> {
  const result = await db.deleteFrom('notifications').where('id', '=', id).where(ownedBy(userId)).executeTakeFirst();
  return Number(result.numDeletedRows);
}
