// The bytes of GET /api/notifications (NotificationList, the route's response schema) from the
// unread rows: each item's four fields written here, its data placed as the stored text, which is
// already what the data's schema serializer wrote (data-text.ts). test/notifications/list-json.test.ts
// holds these bytes to the response schema serializer's for every type.
import type { DataText } from './data-text.js';
import type { NotificationType } from './events.js';

/** An unread notification as the list reads it: the data as its stored text. */
export interface UnreadItem {
  id: string;
  type: NotificationType;
  data: DataText;
  created_at: string;
}

/** The JSON array of the items, in their order; every item is unread (read_at null). */
export function unreadListJson(items: readonly UnreadItem[]): string {
  let json = '[';
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    if (i > 0) json += ',';
    json += `{"id":${JSON.stringify(item.id)},"type":${JSON.stringify(item.type)},"data":${item.data},"read_at":null,"created_at":${JSON.stringify(item.created_at)}}`;
  }
  return `${json}]`;
}
