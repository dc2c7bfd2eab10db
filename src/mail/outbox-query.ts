// Every statement of the mail outbox: writing a mail, finding and claiming the due ones, recording
// how a send went, and the figures for the metrics (how many mails wait or failed, and since when).
import { sql, type Insertable, type Kysely, type Transaction, type Updateable } from 'kysely';
import type { Database } from '../db/schema.js';
import type { MailOutboxTable } from './tables.js';

type Db = Kysely<Database> | Transaction<Database>;

/** Inserts the mail; its id. */
export async function insertMail(db: Db, values: Insertable<MailOutboxTable>): Promise<number> {
  const row = await db.insertInto('mail_outbox').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** Pending mails due now and not claimed by a live worker, oldest first. */
export function dueMails(db: Db, nowIso: string, limit: number): Promise<Array<{ id: number }>> {
  return db
    .selectFrom('mail_outbox')
    .select(['id'])
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', nowIso)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', nowIso)]))
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** Claims the mail until lockedUntil if it is still pending and unclaimed; whether this call got it. */
export async function claimMail(db: Db, id: number, nowIso: string, lockedUntil: string): Promise<boolean> {
  const claimed = await db
    .updateTable('mail_outbox')
    .set({ locked_until: lockedUntil })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', nowIso)]))
    .executeTakeFirst();
  return Number(claimed.numUpdatedRows) === 1;
}

/** What a claimed mail needs to be sent. */
export function claimedMail(db: Db, id: number) {
  return db
    .selectFrom('mail_outbox')
    .select([
      'to_address',
      'subject',
      'text_body',
      'html_body',
      'attempts',
      'message_id',
      'in_reply_to',
      'references_header',
      'reply_to',
      'auto_submitted',
    ])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

/** Records a send: sent, or pending again (or failed) with the next attempt's time and the error. */
export async function recordOutcome(db: Db, id: number, values: Updateable<MailOutboxTable>): Promise<void> {
  await db.updateTable('mail_outbox').set(values).where('id', '=', id).execute();
}

export interface OutboxStatusCount {
  status: string;
  n: number;
  oldest: string | null;
}

/** Pending and failed mails, counted by status, with the oldest creation time of each. */
export function outboxStatusCounts(db: Kysely<Database>): Promise<OutboxStatusCount[]> {
  return db
    .selectFrom('mail_outbox')
    .select(['status', sql<number>`count(*)`.as('n'), sql<string | null>`min(created_at)`.as('oldest')])
    .where('status', 'in', ['pending', 'failed'])
    .groupBy('status')
    .execute();
}
