// SQL of the notifications table. Every "unread of a user" query is shaped to use the partial
// index notifications_unread_index (user_id, created_at desc, seq desc) where read_at is null.
import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { compiledQuery } from '../../db/compiled.js';
import type { Dialect } from '../../db/index.js';
import { isPostgres } from '../../db/schema-helpers.js';
import type { Static } from 'typebox';
import type { Database } from '../../db/schema.js';
import type { PendingNotification } from './events.js';
import type { Notification } from './schemas.js';

/** A notification as the API shows it; data is parsed from its JSON column. */
export type NotificationRecord = Static<typeof Notification>;

/** GET /api/notifications answers at most this many unread notifications, the newest. */
export const UNREAD_LIST_LIMIT = 100;

const COLUMNS = ['id', 'type', 'data', 'read_at', 'created_at'] as const;

type Row = { id: string; type: string; data: string; read_at: string | null; created_at: string };

function toRecord(row: Row): NotificationRecord {
  // Rows are written only by insertNotifications from the typed builders, so the stored JSON and
  // type have the shapes the schema declares.
  return {
    id: row.id,
    type: row.type as NotificationRecord['type'],
    data: JSON.parse(row.data) as NotificationRecord['data'],
    read_at: row.read_at,
    created_at: row.created_at,
  };
}

/**
 * Raises the notifications version of the users, after their notifications changed and in the
 * same transaction. Raised after the change, so a reader that sees the new version also sees the
 * change; one that reads the old version and then the new rows only keeps them under the old
 * version, which the next request no longer matches.
 */
async function raiseVersions(db: Kysely<Database>, userIds: number[]): Promise<void> {
  await db
    .updateTable('users')
    .set((eb) => ({ notifications_version: eb('notifications_version', '+', 1) }))
    .where('id', 'in', [...new Set(userIds)])
    .execute();
}

const versionOf = compiledQuery((db, userId: number) => db.selectFrom('users').select('notifications_version').where('id', '=', userId));

/** The user's notifications version (undefined for a user that does not exist). */
export async function notificationsVersion(db: Kysely<Database>, userId: number): Promise<number | undefined> {
  const [row] = await versionOf(db, userId);
  return row && Number(row.notifications_version);
}

/** Writes the notifications (inside the caller's transaction); returns their ids in order. */
export async function insertNotifications(db: Kysely<Database>, pending: PendingNotification[], createdAt: string): Promise<string[]> {
  if (pending.length === 0) return [];
  const rows = pending.map((n) => ({ id: randomUUID(), user_id: n.user_id, type: n.type, data: JSON.stringify(n.data), created_at: createdAt }));
  await db.insertInto('notifications').values(rows).execute();
  await raiseVersions(db, rows.map((r) => r.user_id));
  return rows.map((r) => r.id);
}

export async function listUnread(db: Kysely<Database>, userId: number): Promise<NotificationRecord[]> {
  const rows = await db
    .selectFrom('notifications')
    .select(COLUMNS)
    .where('user_id', '=', userId)
    .where('read_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('seq', 'desc')
    .limit(UNREAD_LIST_LIMIT)
    .execute();
  return rows.map(toRecord);
}

/** created_at as the API writes it (ISO 8601 UTC with milliseconds and Z) in either dialect. */
function isoCreatedAt(dialect: Dialect) {
  return dialect === 'postgres' ? sql`to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')` : sql.ref('created_at');
}

/**
 * The items joined with commas, newest first. PostgreSQL is told the order inside string_agg.
 * SQLite is not: ORDER BY inside group_concat makes it copy every item into a temporary b-tree
 * and sort again (46 instead of 29 µs for 50 items, best of 7 runs). Its rows already arrive in
 * order, because the ordered, limited subquery runs as a co-routine feeding the aggregate one row
 * at a time; a test with creation times out of insertion order holds it to that.
 */
function joinItems(dialect: Dialect) {
  return dialect === 'postgres' ? sql<string | null>`string_agg(item, ',' order by created_at desc, seq desc)` : sql<string | null>`group_concat(item, ',')`;
}

/**
 * The unread list as the text of a JSON array, made by the database in one row. The hot path:
 * each item is concatenated from the stored data JSON (an unread item's read_at is null), so
 * nothing is parsed or serialised again, and one string crosses into JavaScript instead of one
 * row object per item. id is a UUID, type one of four words and created_at an ISO string, so none
 * needs escaping. The limit is a literal: a bound LIMIT in the subquery made SQLite compile the
 * statement again on every run (40 instead of 29 µs).
 */
const unreadJsonArray = compiledQuery((db, userId: number) => {
  const dialect: Dialect = isPostgres(db) ? 'postgres' : 'sqlite';
  const page = db
    .selectFrom('notifications')
    .select([
      sql<string>`'{"id":"' || id || '","type":"' || type || '","data":' || data || ',"read_at":null,"created_at":"' || ${isoCreatedAt(dialect)} || '"}'`.as('item'),
      'created_at',
      'seq',
    ])
    .where('user_id', '=', userId)
    .where('read_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('seq', 'desc')
    .limit(sql.lit(UNREAD_LIST_LIMIT));
  return db.selectFrom(page.as('page')).select(joinItems(dialect).as('items'));
});

/** The same list as listUnread, as the JSON text of the array. */
export async function listUnreadJson(db: Kysely<Database>, userId: number): Promise<string> {
  const [row] = await unreadJsonArray(db, userId);
  return `[${row?.items ?? ''}]`;
}

const unreadCount = compiledQuery((db, userId: number) =>
  db
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('user_id', '=', userId)
    .where('read_at', 'is', null),
);

export async function countUnread(db: Kysely<Database>, userId: number): Promise<number> {
  const [row] = await unreadCount(db, userId);
  return Number(row!.count);
}

/** The notification with this id if it belongs to the user. */
export async function findOwned(db: Kysely<Database>, userId: number, id: string): Promise<NotificationRecord | undefined> {
  const row = await db.selectFrom('notifications').select(COLUMNS).where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  return row && toRecord(row);
}

/** Runs a change to one user's notifications and, when it changed rows, raises their version in the same transaction. */
function changingNotificationsOf(db: Kysely<Database>, userId: number, change: (trx: Kysely<Database>) => Promise<number>): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const changed = await change(trx);
    if (changed > 0) await raiseVersions(trx, [userId]);
    return changed;
  });
}

/** Sets read_at on the user's notification if it is still unread; returns the rows changed (0 or 1). */
export function markRead(db: Kysely<Database>, userId: number, id: string, readAt: string): Promise<number> {
  return changingNotificationsOf(db, userId, async (trx) => {
    const result = await trx
      .updateTable('notifications')
      .set({ read_at: readAt })
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .where('read_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  });
}

export function markAllRead(db: Kysely<Database>, userId: number, readAt: string): Promise<number> {
  return changingNotificationsOf(db, userId, async (trx) => {
    const result = await trx.updateTable('notifications').set({ read_at: readAt }).where('user_id', '=', userId).where('read_at', 'is', null).executeTakeFirst();
    return Number(result.numUpdatedRows);
  });
}

export function deleteOwned(db: Kysely<Database>, userId: number, id: string): Promise<number> {
  return changingNotificationsOf(db, userId, async (trx) => {
    const result = await trx.deleteFrom('notifications').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows);
  });
}
