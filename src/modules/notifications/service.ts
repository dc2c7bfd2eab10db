// The caller's notifications: list the unread, count them, mark read, delete. Another user's
// notification and an id that is not a UUID are answered exactly like a missing one.
import { nowIso } from '../../db/index.js';
import type { AppDeps } from '../../core/deps.js';
import { msg, notFoundMessageOnly } from '../../core/errors.js';

import { notificationKey } from './access.js';
import type { UnreadItem } from './list-json.js';
import {
  countUnread,
  deleteOwned,
  findOwned,
  listUnread,
  markAllRead,
  markRead,
  type NotificationRecord,
} from './repository.js';
import './messages.js';

export { UNREAD_LIST_LIMIT } from './repository.js';

type Deps = Pick<AppDeps, 'db'>;

const notFound = () => notFoundMessageOnly(msg('notifications.not_found'));

/** The id in its stored form; 404 for anything that cannot name a notification (access.ts). */
function validId(id: string): string {
  const key = notificationKey(id);
  if (key === undefined) throw notFound();
  return key;
}

/** The unread list, newest first, at most UNREAD_LIST_LIMIT. */
export function unread(deps: Deps, userId: number): Promise<UnreadItem[]> {
  return listUnread(deps.db, userId);
}

export function unreadCount(deps: Deps, userId: number): Promise<number> {
  return countUnread(deps.db, userId);
}

/** Marks the notification read; one already read keeps its read_at. Returns it as stored. */
export async function markOneRead(deps: Deps, userId: number, id: string): Promise<NotificationRecord> {
  const key = validId(id);
  await markRead(deps.db, userId, key, nowIso());
  const notification = await findOwned(deps.db, userId, key);
  if (!notification) throw notFound();
  return notification;
}

export function markEveryRead(deps: Deps, userId: number): Promise<number> {
  return markAllRead(deps.db, userId, nowIso());
}

export async function deleteOne(deps: Deps, userId: number, id: string): Promise<void> {
  const deleted = await deleteOwned(deps.db, userId, validId(id));
  if (deleted === 0) throw notFound();
}
