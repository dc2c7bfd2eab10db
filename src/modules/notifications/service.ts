// The caller's notifications: list the unread, count them, mark read, delete. Another user's
// notification and an id that is not a UUID are answered exactly like a missing one.
import type { Kysely } from 'kysely';
import { nowIso } from '../../db/index.js';
import type { Database } from '../../db/schema.js';
import { msg, notFoundMessageOnly } from '../../core/errors.js';
import { registerMessages } from '../../core/i18n.js';
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

export { UNREAD_LIST_LIMIT } from './repository.js';

registerMessages({
  'notifications.not_found': { en: 'Notification not found.', fa: 'اعلان یافت نشد.' },
  'notifications.marked_read': { en: 'Notification marked as read.', fa: 'اعلان خوانده‌شده علامت خورد.' },
  'notifications.deleted': { en: 'Notification deleted.', fa: 'اعلان حذف شد.' },
  'notifications.all_marked_read': {
    en: 'All notifications marked as read.',
    fa: 'همهٔ اعلان‌ها خوانده‌شده علامت خوردند.',
  },
});

export class NotificationService {
  constructor(private readonly db: Kysely<Database>) {}

  /** The unread list, newest first, at most UNREAD_LIST_LIMIT. */
  unread(userId: number): Promise<UnreadItem[]> {
    return listUnread(this.db, userId);
  }

  unreadCount(userId: number): Promise<number> {
    return countUnread(this.db, userId);
  }

  /** Marks the notification read; one already read keeps its read_at. Returns it as stored. */
  async markRead(userId: number, id: string): Promise<NotificationRecord> {
    const key = this.validId(id);
    await markRead(this.db, userId, key, nowIso());
    const notification = await findOwned(this.db, userId, key);
    if (!notification) throw notFoundMessageOnly(msg('notifications.not_found'));
    return notification;
  }

  async markAllRead(userId: number): Promise<number> {
    return markAllRead(this.db, userId, nowIso());
  }

  async delete(userId: number, id: string): Promise<void> {
    const deleted = await deleteOwned(this.db, userId, this.validId(id));
    if (deleted === 0) throw notFoundMessageOnly(msg('notifications.not_found'));
  }

  /** The id in its stored form; 404 for anything that cannot name a notification (access.ts). */
  private validId(id: string): string {
    const key = notificationKey(id);
    if (key === undefined) throw notFoundMessageOnly(msg('notifications.not_found'));
    return key;
  }
}
