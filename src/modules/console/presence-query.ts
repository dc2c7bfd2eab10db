// SQL of presence without Redis: one row per staff member on a ticket's page, until it expires.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

export async function upsertPresence(
  db: Kysely<Database>,
  ticketId: number,
  userId: number,
  state: string,
  expiresAt: string,
): Promise<void> {
  await db
    .insertInto('ticket_presence')
    .values({ ticket_id: ticketId, user_id: userId, state, expires_at: expiresAt })
    .onConflict((oc) => oc.columns(['ticket_id', 'user_id']).doUpdateSet({ state, expires_at: expiresAt }))
    .execute();
}

export async function deletePresence(db: Kysely<Database>, ticketId: number, userId: number): Promise<void> {
  await db.deleteFrom('ticket_presence').where('ticket_id', '=', ticketId).where('user_id', '=', userId).execute();
}

/** Who is on the page now; expired rows of the ticket are removed on the way. */
export async function presentOn(
  db: Kysely<Database>,
  ticketId: number,
  now: string,
): Promise<{ user_id: number; state: string }[]> {
  await db.deleteFrom('ticket_presence').where('ticket_id', '=', ticketId).where('expires_at', '<=', now).execute();
  return db
    .selectFrom('ticket_presence')
    .select(['user_id', 'state'])
    .where('ticket_id', '=', ticketId)
    .orderBy('user_id')
    .execute();
}
