// The outbox's figures for the metrics: how many mails wait or failed, and since when.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

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
