// Who may see and change a ticket: the one access policy of the tickets area. The spec's rule: a
// member's tickets are those with their user id or their email on them (a ticket filed under
// their address before they had an account, or by the assistant for them); staff (the admin
// routes) act on every ticket. Every ticket query takes its ownership condition from here, and
// test/tickets/access-policy.test.ts holds the answer-version triggers (migrations
// 202611211300, 202611240100) and the list queries to the same rule, row by row.
import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { Database } from '../../db/schema.js';

/** A member as the rule sees them; the email as stored on users (lower case). */
export interface Owner {
  id: number;
  email: string;
}

/** Whose tickets a request acts on: a member's own, or every ticket (STAFF). */
export type TicketScope = Owner | typeof STAFF;

/** The scope of the staff routes: no owner, every ticket. */
export const STAFF = null;

/** The member's scope; the email lower-cased as tickets store it. */
export function memberScope(user: Owner): Owner {
  return { id: user.id, email: user.email.toLowerCase() };
}

/** The rule itself: does the member own the ticket? */
export function owns(owner: Owner, ticket: { user_id: number | null; email: string | null }): boolean {
  return ticket.user_id === owner.id || (ticket.email !== null && ticket.email === owner.email.toLowerCase());
}

type TicketsEb = ExpressionBuilder<Database, 'tickets'>;

/** The rule as one SQL condition on `tickets` (user_id = ? OR email = ?). */
export function ownedBy(ownerId: number, ownerEmail: string) {
  return (eb: TicketsEb): Expression<SqlBool> =>
    eb.or([eb('tickets.user_id', '=', ownerId), eb('tickets.email', '=', ownerEmail)]);
}

/**
 * The rule as two disjoint conditions whose union is ownedBy: the tickets with the member's user
 * id, and those with their email and another (or no) user id. Each half is read through its own
 * index, so a page costs the page, not every ticket the member has.
 */
export function ownershipHalves(ownerId: number, ownerEmail: string) {
  return [
    (eb: TicketsEb) => eb('tickets.user_id', '=', ownerId),
    (eb: TicketsEb) =>
      eb.and([
        eb('tickets.email', '=', ownerEmail),
        eb.or([eb('tickets.user_id', 'is', null), eb('tickets.user_id', '!=', ownerId)]),
      ]),
  ];
}
