// Rules of the tickets area: ownership, states, SLA, activities and the confirmation mail. Every
// change and its activity rows (and the outbox mail) are written in one transaction.
import { randomInt } from 'node:crypto';
import { nowIso } from '../../db/index.js';
import { HttpError, ValidationError, msg, notFoundMessageOnly, type FieldMessages } from '../../core/errors.js';
import { fieldMessage } from '../../core/fields.js';
import { t } from '../../core/i18n.js';
import { pageMeta } from '../../core/pagination.js';
import type { AppDeps } from '../../core/deps.js';
import { enqueueMail } from '../../mail/outbox.js';
import { confirmationMail } from './confirmation-mail.js';
import type { TicketScope } from './access.js';
import './messages.js';
import { priorityFor } from './priority.js';
import { activityView, commentView, fullView, personWithEmail, summaryView } from './presenter.js';
import { usersByIds } from '../users/service.js';
import * as repo from './repository.js';
import { deadlinesFor, slaStatusChangesAt } from './sla.js';
import { slaClockOf } from './calendar/clock.js';
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
  source?: 'api' | 'assistant' | 'email';
  /** A ticket opened by mail from an address without an account: owned by that address. */
  mailOwner?: { email: string; name: string; locale: 'en' | 'fa' };
  /** The Message-ID of the mail that opened the ticket: the confirmation answers it. */
  answers?: string;
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
}

export function ticketNotFound(id: number | string) {
  return notFoundMessageOnly(`No query results for model [Ticket] ${id}`);
}

const TRACKING_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

export function newTrackingCode(): string {
  let code = 'TK-';
  for (let i = 0; i < 8; i++) code += TRACKING_ALPHABET[randomInt(TRACKING_ALPHABET.length)];
  return code;
}

/** Unknown tag ids give 422 on tags.N, N being the position in the request. */
async function checkTags(deps: AppDeps, tagIds: number[]): Promise<void> {
  if (tagIds.length === 0) return;
  const known = new Set((await repo.findTagsByIds(deps.db, [...new Set(tagIds)])).map((t) => t.id));
  const errors: FieldMessages = {};
  tagIds.forEach((id, index) => {
    if (!known.has(id)) errors[`tags.${index}`] = [fieldMessage('in', `tags.${index}`)];
  });
  if (Object.keys(errors).length) throw new ValidationError(errors, 'tickets');
}

/**
 * Creates a ticket with its tags, attachments, "created" activity and confirmation mail, in a
 * transaction of its own, or in `inTransaction` when the caller has one open (the escalation
 * holds a lock on the conversation while its ticket is written).
 */
export async function createFullTicket(deps: AppDeps, input: FullTicketInput, inTransaction?: repo.Db) {
  const tagIds = input.tags ?? [];
  await checkTags(deps, tagIds);
  const priority = input.priority ?? priorityFor(input.subject, input.message);
  // Inside the caller's transaction (SQLite has one connection: deps.db would wait for it forever).
  await slaClockOf(deps.config).refresh(inTransaction ?? deps.db);
  if (inTransaction) return writeFullTicket(deps, inTransaction, input, tagIds, priority);
  return deps.db.transaction().execute((trx) => writeFullTicket(deps, trx, input, tagIds, priority));
}

async function writeFullTicket(
  deps: AppDeps,
  trx: repo.Db,
  input: FullTicketInput,
  tagIds: number[],
  priority: TicketPriority,
) {
  const now = nowIso();
  const clock = slaClockOf(deps.config);
  const row: repo.NewTicketRow = {
    tracking_code: newTrackingCode(),
    user_id: input.owner?.id ?? null,
    email: (input.owner?.email ?? input.mailOwner?.email)?.trim().toLowerCase() ?? null,
    subject: input.subject,
    message: input.message,
    status: 'open',
    priority,
    category: input.category ?? null,
    source: input.source ?? 'api',
    assignee_id: null,
    ...deadlinesFor(priority, now, clock),
    first_response_at: null,
    resolved_at: null,
    created_at: now,
    updated_at: now,
  };
  // A drawn code already taken (36^8 codes: rare) is drawn again: the insert skips a taken code.
  let ticket = await repo.insertTicketIfCodeFree(trx, row);
  while (!ticket) ticket = await repo.insertTicketIfCodeFree(trx, { ...row, tracking_code: newTrackingCode() });
  await repo.attachTags(trx, ticket.id, tagIds);
  const attachments = await repo.insertAttachments(
    trx,
    (input.attachments ?? []).map((a) => ({ ...a, ticket_id: ticket.id, comment_id: null, created_at: now })),
  );
  const actor = input.owner?.id ?? null;
  await repo.insertActivities(trx, [
    { ticket_id: ticket.id, user_id: actor, type: 'created', new_value: ticket.status, created_at: now },
    ...attachments.map((a) => ({
      ticket_id: ticket.id,
      user_id: actor,
      type: 'attachment_added',
      field: 'attachments',
      new_value: a.file_name,
      created_at: now,
    })),
  ]);
  // The mail is a row of this transaction: it is sent (later, by the worker) only if the ticket exists.
  const mailTo =
    input.owner ?? (input.mailOwner && { ...input.mailOwner, first_name: input.mailOwner.name, last_name: '' });
  if (mailTo)
    await enqueueMail(trx, confirmationMail(deps.config, { ...ticket, owner: mailTo, answers: input.answers }));
  const tags = await repo.tagsOf(trx, ticket.id);
  return fullView(ticket, tags, attachments, new Map(), clock);
}

/** The entry point other modules use (the assistant's escalation), optionally inside their transaction. */
export async function createTicket(
  deps: AppDeps,
  input: NewTicketInput,
  inTransaction?: repo.Db,
): Promise<{ id: number; tracking_code: string }> {
  const ticket = await createFullTicket(deps, input, inTransaction);
  return { id: ticket.id, tracking_code: ticket.tracking_code };
}

/** The caller as the ticket rules see it. */
export interface Caller {
  id: number;
  email: string;
  is_admin: boolean;
}

export async function listTickets(
  deps: AppDeps,
  caller: TicketScope,
  filters: repo.TicketFilters,
  page: number,
  perPage: number,
) {
  const { total, rows, tags } = await repo.listTickets(deps.db, caller, filters, perPage, (page - 1) * perPage);
  const personIds: number[] = [];
  for (const r of rows) {
    if (r.assignee_id !== null) personIds.push(r.assignee_id);
    if (!caller && r.user_id !== null) personIds.push(r.user_id);
  }
  const people = await usersByIds(deps.db, personIds);
  return { total, rows, tags, people };
}

/** GET /api/tickets for a member: the page as the route answers it, and when its SLA statuses next move. */
export async function callerList(
  deps: AppDeps,
  caller: Caller,
  filters: repo.TicketFilters,
  page: number,
  perPage: number,
  now: number,
) {
  const { total, rows, tags, people } = await listTickets(deps, caller, filters, page, perPage);
  const data = rows.map((r) => summaryView(r, tags.get(r.id) ?? [], people, now));
  const validUntil = rows.reduce(
    (soonest, r) => Math.min(soonest, slaStatusChangesAt(r, now)),
    Number.POSITIVE_INFINITY,
  );
  return { payload: { success: true, data, meta: pageMeta(total, page, perPage) }, validUntil };
}

export async function ticketStats(deps: AppDeps, caller: Caller) {
  const counts = await repo.countByStatus(deps.db, caller);
  const open = counts.open ?? 0;
  const inProgress = counts['in-progress'] ?? 0;
  const closed = counts.closed ?? 0;
  return { total: open + inProgress + closed, open, in_progress: inProgress, closed };
}

/** The ticket if the scope holds it (a member's own, any for STAFF), or the spec's 404. */
export async function ticketOf(
  deps: AppDeps,
  caller: TicketScope,
  id: number,
  db: repo.Db = deps.db,
): Promise<repo.TicketRow> {
  const ticket = await repo.findTicket(db, id, caller);
  if (!ticket) throw ticketNotFound(id);
  return ticket;
}

/** The detail view: the full ticket with owner, assignee (with emails), comments and activities. */
export async function ticketDetail(deps: AppDeps, ticket: repo.TicketRow) {
  const { tags, attachments, comments, activities } = await repo.childrenOf(deps.db, ticket.id);
  const personIds = [
    ticket.user_id,
    ticket.assignee_id,
    ...comments.map((c) => c.user_id),
    ...activities.map((a) => a.user_id),
  ];
  const people = await usersByIds(
    deps.db,
    personIds.filter((id): id is number => id !== null),
  );
  const owner = ticket.user_id === null ? undefined : people.get(ticket.user_id);
  const assignee = ticket.assignee_id === null ? undefined : people.get(ticket.assignee_id);
  const ticketAttachments = attachments.filter((a) => a.comment_id === null);
  return {
    ...fullView(ticket, tags, ticketAttachments, people, slaClockOf(deps.config)),
    assignee: personWithEmail(assignee),
    user: personWithEmail(owner, ticket.email),
    comments: comments.map((c) =>
      commentView(
        c,
        attachments.filter((a) => a.comment_id === c.id),
        people,
      ),
    ),
    activities: activities.map((a) => activityView({ ...a, ticket_id: ticket.id }, people)),
  };
}

/** The ticket's version: the id of its newest comment, member's or staff's (0 without one). */
export function ticketVersion(deps: Pick<AppDeps, 'db'>, ticketId: number): Promise<number> {
  return repo.versionOf(deps.db, ticketId);
}

/**
 * A staff reply's if_version against the ticket's version now: 409 with the current version when a
 * comment arrived since the one the staff member saw; nothing without if_version.
 */
export async function expectVersion(deps: Pick<AppDeps, 'db'>, ticketId: number, expected: string | undefined) {
  if (expected === undefined) return;
  const version = String(await ticketVersion(deps, ticketId));
  if (version === expected) return;
  const key = 'tickets.version_changed';
  throw new HttpError(409, { success: false, message: t('en', key), version }, {}, msg(key));
}
