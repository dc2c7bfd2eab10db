// Rules of the tickets area: ownership, states, SLA, activities and the confirmation mail. Every
// change and its activity rows (and the outbox mail) are written in one transaction.
import { randomInt } from 'node:crypto';
import { nowIso } from '../../db/index.js';
import { ValidationError, notFoundMessageOnly } from '../../http/errors.js';
import type { Locale } from '../../http/i18n.js';
import type { AppDeps } from '../../http/types.js';
import { fieldMessage } from '../../http/validation.js';
import { enqueueMail } from '../../mail/outbox.js';
import { confirmationMail } from './confirmation-mail.js';
import './messages.js';
import { priorityFor } from './priority.js';
import { fullView } from './presenter.js';
import * as repo from './repository.js';
import { firstResponseDeadlineFor, slaDeadlineFor } from './sla.js';
import type { TicketPriority } from './tables.js';

export interface NewTicketInput {
  /** null = no owner (admins see it). */
  owner: { id: number; email: string; first_name: string; last_name: string; locale?: 'en' | 'fa' } | null;
  /** At most 255 characters. */
  subject: string;
  /** At least 10 characters. */
  message: string;
  /** Omitted: computed from subject and message. */
  priority?: TicketPriority;
  category?: string | null;
  source?: 'api' | 'assistant';
}

/** A file already in storage, to be recorded with the ticket or comment. */
export interface StoredUpload {
  storage_key: string;
  file_name: string;
  file_type: string;
  file_size: number;
}

export interface FullTicketInput extends NewTicketInput {
  tags?: number[];
  attachments?: StoredUpload[];
  /** Used for the validation messages of tags. */
  locale?: Locale;
}

export function ticketNotFound(id: number | string) {
  return notFoundMessageOnly(`No query results for model [Ticket] ${id}`);
}

const TRACKING_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const CREATE_ATTEMPTS = 5;

export function newTrackingCode(): string {
  let code = 'TK-';
  for (let i = 0; i < 8; i++) code += TRACKING_ALPHABET[randomInt(TRACKING_ALPHABET.length)];
  return code;
}

function isTrackingCodeCollision(error: unknown): boolean {
  const e = error as { code?: string; message?: string; constraint?: string };
  const unique = e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE';
  return unique && `${e.constraint ?? ''} ${e.message ?? ''}`.includes('tracking_code');
}

/** Unknown tag ids give 422 on tags.N, N being the position in the request. */
async function checkTags(deps: AppDeps, tagIds: number[], locale: Locale): Promise<void> {
  if (tagIds.length === 0) return;
  const known = new Set((await repo.findTagsByIds(deps.db, [...new Set(tagIds)])).map((t) => t.id));
  const errors: Record<string, string[]> = {};
  tagIds.forEach((id, index) => {
    if (!known.has(id)) errors[`tags.${index}`] = [fieldMessage(locale, 'in', `tags.${index}`)];
  });
  if (Object.keys(errors).length) throw new ValidationError(errors, 'tickets');
}

/** Creates a ticket with its tags, attachments, "created" activity and confirmation mail. */
export async function createFullTicket(deps: AppDeps, input: FullTicketInput) {
  const tagIds = input.tags ?? [];
  await checkTags(deps, tagIds, input.locale ?? 'en');
  const priority = input.priority ?? priorityFor(input.subject, input.message);
  for (let attempt = 1; ; attempt++) {
    try {
      return await deps.db.transaction().execute(async (trx) => {
        const now = nowIso();
        let code = newTrackingCode();
        while (await repo.trackingCodeExists(trx, code)) code = newTrackingCode();
        const ticket = await repo.insertTicket(trx, {
          tracking_code: code,
          user_id: input.owner?.id ?? null,
          email: input.owner ? input.owner.email.trim().toLowerCase() : null,
          subject: input.subject,
          message: input.message,
          status: 'open',
          priority,
          category: input.category ?? null,
          source: input.source ?? 'api',
          assignee_id: null,
          sla_deadline: slaDeadlineFor(priority, now),
          first_response_due_at: firstResponseDeadlineFor(priority, now),
          first_response_at: null,
          resolved_at: null,
          created_at: now,
          updated_at: now,
        });
        await repo.attachTags(trx, ticket.id, tagIds);
        const attachments = await repo.insertAttachments(
          trx,
          (input.attachments ?? []).map((a) => ({ ...a, ticket_id: ticket.id, comment_id: null, created_at: now })),
        );
        const actor = input.owner?.id ?? null;
        await repo.insertActivities(trx, [
          { ticket_id: ticket.id, user_id: actor, type: 'created', new_value: ticket.status, created_at: now },
          ...attachments.map((a) => ({ ticket_id: ticket.id, user_id: actor, type: 'attachment_added', field: 'attachments', new_value: a.file_name, created_at: now })),
        ]);
        // The mail is a row of this transaction: it is sent (later, by the worker) only if the ticket exists.
        if (input.owner) await enqueueMail(trx, confirmationMail(deps.config, { ...ticket, owner: input.owner }));
        const tags = (await repo.tagsOfTickets(trx, [ticket.id])).get(ticket.id) ?? [];
        return fullView(ticket, tags, attachments, new Map());
      });
    } catch (error) {
      if (attempt < CREATE_ATTEMPTS && isTrackingCodeCollision(error)) continue;
      throw error;
    }
  }
}

/** The entry point other modules use (the assistant's escalation). */
export async function createTicket(deps: AppDeps, input: NewTicketInput): Promise<{ id: number; tracking_code: string }> {
  const ticket = await createFullTicket(deps, input);
  return { id: ticket.id, tracking_code: ticket.tracking_code };
}
