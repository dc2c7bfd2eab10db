// Who may see and change a notification: its user, nobody else. Another user's notification and
// an id that is not a UUID are answered exactly like a missing one (404), so a caller learns
// nothing of other people's notifications. Every notification query takes its condition from here.
import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { Database } from '../../db/schema.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The rule as one SQL condition on `notifications`: the user's own. */
export function ownedBy(userId: number) {
  return (eb: ExpressionBuilder<Database, 'notifications'>): Expression<SqlBool> => eb('user_id', '=', userId);
}

/** The id in its stored (lower-case) form, or undefined: anything but a UUID names no notification. */
export function notificationKey(id: string): string | undefined {
  return UUID.test(id) ? id.toLowerCase() : undefined;
}
