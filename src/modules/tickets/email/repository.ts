// SQL of mail as a ticket channel: the inbound messages, the outbox rows they refer to, where the
// fetcher stands in a mailbox, and the tickets a message names.
import { sql } from 'kysely';
import type { InboundMailTable, InboundStatus } from '../../../mail/tables.js';
import type { Db } from '../repository.js';
import { TICKET_COLUMNS, type TicketRow } from '../repository.js';

export type InboundRow = Omit<InboundMailTable, 'id'> & { id: number };
export type NewInboundRow = Omit<InboundMailTable, 'id' | 'decided_by' | 'decided_at'>;

export const INBOUND_LIST_COLUMNS = [
  'id',
  'message_id',
  'from_address',
  'subject',
  'status',
  'reason',
  'ticket_id',
  'comment_id',
  'outbox_id',
  'original_text',
  'decided_by',
  'decided_at',
  'created_at',
] as const;

/** Whether a message with this Message-ID was already recorded. */
export async function inboundExists(db: Db, messageId: string): Promise<boolean> {
  const row = await db.selectFrom('inbound_mail').select('id').where('message_id', '=', messageId).executeTakeFirst();
  return row !== undefined;
}

/**
 * Records the message; undefined when another process recorded the same Message-ID first (the
 * unique index decides; ON CONFLICT keeps the caller's transaction usable on PostgreSQL).
 */
export async function insertInbound(db: Db, row: NewInboundRow): Promise<number | undefined> {
  const inserted = await db
    .insertInto('inbound_mail')
    .values(row)
    .onConflict((oc) => oc.column('message_id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted?.id;
}

export async function updateInbound(db: Db, id: number, values: Partial<Omit<InboundRow, 'id'>>): Promise<void> {
  await db.updateTable('inbound_mail').set(values).where('id', '=', id).execute();
}

export async function findInbound(db: Db, id: number): Promise<InboundRow | undefined> {
  return db.selectFrom('inbound_mail').selectAll().where('id', '=', id).executeTakeFirst() as Promise<
    InboundRow | undefined
  >;
}

export async function listInbound(db: Db, status: InboundStatus | undefined, limit: number, offset: number) {
  let query = db.selectFrom('inbound_mail');
  if (status) query = query.where('status', '=', status);
  const total = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await query.select(INBOUND_LIST_COLUMNS).orderBy('id', 'desc').limit(limit).offset(offset).execute();
  return { total: Number(total.n), rows };
}

/** Messages of this sender applied (comment or ticket) since the given time. */
export async function appliedSince(db: Db, from: string, sinceIso: string): Promise<number> {
  const row = await db
    .selectFrom('inbound_mail')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('from_address', '=', from)
    .where('created_at', '>=', sinceIso)
    .where('status', 'in', ['comment', 'ticket'])
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Other messages of this address held as unverified on this ticket since the given time (each told the sender). */
export async function noticesSince(db: Db, ticketId: number, from: string, sinceIso: string, exceptId: number) {
  const row = await db
    .selectFrom('inbound_mail')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('ticket_id', '=', ticketId)
    .where('from_address', '=', from)
    .where('reason', '=', 'unverified_sender')
    .where('created_at', '>=', sinceIso)
    .where('id', '<>', exceptId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Deferred messages, oldest first. */
export async function deferredMessages(db: Db, limit: number) {
  return db
    .selectFrom('inbound_mail')
    .select(['id', 'raw_message', 'from_address'])
    .where('status', '=', 'deferred')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** The ticket of the first of these Message-IDs that we sent, or that we received on a ticket. */
export async function ticketIdOfMessageIds(db: Db, messageIds: string[]): Promise<number | undefined> {
  if (messageIds.length === 0) return undefined;
  const sent = await db
    .selectFrom('mail_outbox')
    .select(['message_id', 'ticket_id'])
    .where('message_id', 'in', messageIds)
    .where('ticket_id', 'is not', null)
    .execute();
  const received = await db
    .selectFrom('inbound_mail')
    .select(['message_id', 'ticket_id'])
    .where('message_id', 'in', messageIds)
    .where('ticket_id', 'is not', null)
    .execute();
  const byId = new Map<string, number>();
  for (const r of [...sent, ...received]) if (r.message_id && r.ticket_id !== null) byId.set(r.message_id, r.ticket_id);
  for (const id of messageIds) if (byId.has(id)) return byId.get(id);
  return undefined;
}

export async function ticketById(db: Db, id: number): Promise<TicketRow | undefined> {
  return db.selectFrom('tickets').select(TICKET_COLUMNS).where('id', '=', id).executeTakeFirst();
}

export async function ticketByCode(db: Db, code: string): Promise<TicketRow | undefined> {
  return db.selectFrom('tickets').select(TICKET_COLUMNS).where('tracking_code', '=', code).executeTakeFirst();
}

/** Marks the sent mail with one of these Message-IDs bounced; its id, or undefined when none is ours. */
export async function markBounced(db: Db, messageIds: string[], reason: string, now: string) {
  if (messageIds.length === 0) return undefined;
  const row = await db
    .updateTable('mail_outbox')
    .set({ status: 'bounced', bounced_at: now, last_error: reason.slice(0, 1000) })
    .where('message_id', 'in', messageIds)
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

/** Where the fetcher stands in a mailbox. */
export async function inboxState(db: Db, mailbox: string) {
  return db
    .selectFrom('mail_inbox_state')
    .select(['uid_validity', 'last_uid'])
    .where('mailbox', '=', mailbox)
    .executeTakeFirst();
}

/** Moves the mailbox position forward to uid (never back), in the caller's transaction. */
export async function advanceInbox(db: Db, mailbox: string, uidValidity: string, uid: number, now: string) {
  await db
    .insertInto('mail_inbox_state')
    .values({ mailbox, uid_validity: uidValidity, last_uid: uid, updated_at: now })
    .onConflict((oc) =>
      oc.column('mailbox').doUpdateSet({
        uid_validity: uidValidity,
        // A new UIDVALIDITY starts over; under the same one the position only moves forward.
        last_uid: sql<number>`case when mail_inbox_state.uid_validity = ${uidValidity} and mail_inbox_state.last_uid > ${uid} then mail_inbox_state.last_uid else ${uid} end`,
        updated_at: now,
      }),
    )
    .execute();
}

/** Updates a held message's record while it is still held; false when someone decided first. */
export async function decideHeld(db: Db, id: number, values: Partial<Omit<InboundRow, 'id'>>): Promise<boolean> {
  const result = await db
    .updateTable('inbound_mail')
    .set(values)
    .where('id', '=', id)
    .where('status', '=', 'held')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Moves a held or deferred message to its outcome; false when it is no longer waiting. */
export async function claimWaiting(db: Db, id: number, status: InboundStatus): Promise<boolean> {
  const result = await db
    .updateTable('inbound_mail')
    .set({ status })
    .where('id', '=', id)
    .where('status', 'in', ['held', 'deferred'])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
