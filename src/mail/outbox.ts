// Transactional outbox: a mail is a row written in the same transaction as the change it reports,
// so it exists exactly when the change does, and survives a restart. A worker sends due rows with
// retries and exponential backoff. Several instances may run workers: a row is claimed with a
// conditional update on locked_until, so only one of them sends it.
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import * as queries from './outbox-query.js';
import type { MailTransport } from './transport.js';

export interface NewMail {
  to: string;
  subject: string;
  text: string;
  html?: string | null;
  /** Threading: this mail's Message-ID (<...>), the one it answers, and the thread's ids. */
  messageId?: string;
  inReplyTo?: string;
  references?: string[];
  replyTo?: string;
  /** Sent by the system on its own (not a person's reply): marked Auto-Submitted: auto-generated. */
  automatic?: boolean;
  ticketId?: number;
}

export interface OutboxOptions {
  /** Attempts before a mail is given up (status failed). */
  maxAttempts: number;
  /** Delay before the second attempt; doubles each time, up to maxDelayMs. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** How long a claim holds: a worker that dies mid-send frees the row after this. */
  lockMs: number;
  batchSize: number;
}

export const OUTBOX_DEFAULTS: OutboxOptions = {
  maxAttempts: 8,
  baseDelayMs: 30_000,
  maxDelayMs: 3_600_000,
  lockMs: 120_000,
  batchSize: 20,
};

/** Writes the mail in the caller's transaction; it is sent only if that transaction commits. */
export async function enqueueMail(
  trx: Transaction<Database> | Kysely<Database>,
  mail: NewMail,
  now: Date = new Date(),
): Promise<number> {
  const iso = now.toISOString();
  return queries.insertMail(trx, {
    to_address: mail.to,
    subject: mail.subject.slice(0, 255),
    text_body: mail.text,
    html_body: mail.html ?? null,
    next_attempt_at: iso,
    locked_until: null,
    last_error: null,
    sent_at: null,
    created_at: iso,
    message_id: mail.messageId ?? null,
    in_reply_to: mail.inReplyTo ?? null,
    references_header: mail.references?.length ? mail.references.join(' ') : null,
    reply_to: mail.replyTo ?? null,
    auto_submitted: mail.automatic ? 1 : 0,
    ticket_id: mail.ticketId ?? null,
  });
}

export function backoffDelayMs(attempts: number, options: OutboxOptions = OUTBOX_DEFAULTS): number {
  return Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** Math.max(0, attempts - 1));
}

export interface DrainResult {
  sent: number;
  failed: number;
}

/** One cycle: claims the due mail, sends it, records the outcome. Safe to run from many processes. */
export async function drainOutbox(
  db: Kysely<Database>,
  transport: MailTransport,
  from: string,
  options: Partial<OutboxOptions> & { now?: Date } = {},
): Promise<DrainResult> {
  const opts = { ...OUTBOX_DEFAULTS, ...options };
  const now = options.now ?? new Date();
  const nowIso = now.toISOString();
  const due = await queries.dueMails(db, nowIso, opts.batchSize);

  const result: DrainResult = { sent: 0, failed: 0 };
  for (const { id } of due) {
    const lockedUntil = new Date(now.getTime() + opts.lockMs).toISOString();
    if (!(await queries.claimMail(db, id, nowIso, lockedUntil))) continue;

    const mail = await queries.claimedMail(db, id);
    try {
      await transport.send({
        from,
        to: mail.to_address,
        subject: mail.subject,
        text: mail.text_body,
        html: mail.html_body,
        messageId: mail.message_id,
        inReplyTo: mail.in_reply_to,
        references: mail.references_header,
        replyTo: mail.reply_to,
        automatic: mail.auto_submitted === 1,
      });
      await queries.recordOutcome(db, id, {
        status: 'sent',
        sent_at: new Date().toISOString(),
        attempts: mail.attempts + 1,
        locked_until: null,
        last_error: null,
      });
      result.sent++;
    } catch (error) {
      const attempts = mail.attempts + 1;
      const givingUp = attempts >= opts.maxAttempts;
      await queries.recordOutcome(db, id, {
        status: givingUp ? 'failed' : 'pending',
        attempts,
        next_attempt_at: new Date(now.getTime() + backoffDelayMs(attempts, opts)).toISOString(),
        locked_until: null,
        last_error: (error instanceof Error ? error.message : String(error)).slice(0, 1000),
      });
      result.failed++;
    }
  }
  return result;
}
