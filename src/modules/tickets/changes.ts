// Changes to an existing ticket: its fields, closing it, a comment (member or staff), and the
// file of one of its attachments. Each change and its activity rows share one transaction.
import { nowIso } from '../../db/index.js';
import { businessRule, msg, notFound } from '../../core/errors.js';
import type { AppDeps } from '../../core/deps.js';
import './messages.js';
import { commentView } from './presenter.js';
import * as repo from './repository.js';
import type { Caller, StoredUpload } from './service.js';
import { deadlinesFor } from './sla.js';
import { slaClockOf } from './calendar/clock.js';
import type { AttachmentStorage } from './storage/index.js';
import { enqueueMail } from '../../mail/outbox.js';
import { recipientOf, staffReplyMail } from './email/outbound.js';
import type { TicketPriority } from './tables.js';

export interface TicketChanges {
  priority?: TicketPriority;
  category?: string | null;
}

export async function updateTicketFields(
  deps: AppDeps,
  caller: Caller,
  ticket: repo.TicketRow,
  changes: TicketChanges,
) {
  if (ticket.status === 'closed') throw businessRule(msg('tickets.closed_not_editable'));
  const clock = slaClockOf(deps.config);
  await clock.refresh(deps.db);
  return deps.db.transaction().execute(async (trx) => {
    const now = nowIso();
    const set: Partial<repo.TicketRow> = {};
    const activities: repo.ActivityValues[] = [];
    const change = (field: 'priority' | 'category', from: string | null, to: string | null) =>
      activities.push({
        ticket_id: ticket.id,
        user_id: caller.id,
        type: 'field_updated',
        field,
        old_value: from,
        new_value: to,
        created_at: now,
      });
    if (changes.priority !== undefined && changes.priority !== ticket.priority) {
      set.priority = changes.priority;
      // Deadlines count from creation (in working time with SLA_CLOCK=business), not from the change.
      Object.assign(set, deadlinesFor(changes.priority, ticket.created_at, clock));
      change('priority', ticket.priority, changes.priority);
    }
    if (changes.category !== undefined && changes.category !== ticket.category) {
      set.category = changes.category;
      change('category', ticket.category, changes.category);
    }
    if (activities.length) {
      // Guarded by status so a close racing this edit wins cleanly: a closed ticket is never edited.
      if (!(await repo.updateOpenTicket(trx, ticket.id, { ...set, updated_at: now })))
        throw businessRule(msg('tickets.closed_not_editable'));
      await repo.insertActivities(trx, activities);
    }
    const updated = { ...ticket, ...set };
    return {
      id: updated.id,
      tracking_code: updated.tracking_code,
      priority: updated.priority,
      sla_deadline: updated.sla_deadline,
      status: updated.status,
    };
  });
}

export async function closeTicket(deps: AppDeps, caller: Caller, ticket: repo.TicketRow) {
  if (ticket.status === 'closed') throw businessRule(msg('tickets.already_closed'));
  return deps.db.transaction().execute(async (trx) => {
    const now = nowIso();
    if (!(await repo.updateOpenTicket(trx, ticket.id, { status: 'closed', resolved_at: now, updated_at: now })))
      throw businessRule(msg('tickets.already_closed'));
    await repo.insertActivities(trx, [
      {
        ticket_id: ticket.id,
        user_id: caller.id,
        type: 'status_changed',
        field: 'status',
        old_value: ticket.status,
        new_value: 'closed',
        created_at: now,
      },
    ]);
    return { id: ticket.id, status: 'closed' as const, resolved_at: now };
  });
}

export interface CommentOptions {
  /** The caller's open transaction (inbound mail records its message in the same one). */
  inTransaction?: repo.Db;
}

/** A comment's author: a user, or (by mail) the address a ticket was filed under (id null). */
export type CommentAuthor = Omit<Caller, 'id'> & { id: number | null; first_name: string; last_name: string };

/** The owner's comment; on a closed ticket it reopens it (open, resolved_at cleared). */
export function addMemberComment(
  deps: AppDeps,
  author: CommentAuthor,
  ticket: repo.TicketRow,
  message: string,
  uploads: StoredUpload[],
  options: CommentOptions = {},
) {
  return addComment(deps, author, ticket, message, uploads, false, options);
}

/** A staff reply: moves the ticket to in-progress, records the first response time, mails the owner. */
export function addStaffReply(
  deps: AppDeps,
  author: CommentAuthor,
  ticket: repo.TicketRow,
  message: string,
  uploads: StoredUpload[],
  options: CommentOptions = {},
) {
  return addComment(deps, author, ticket, message, uploads, true, options);
}

/**
 * A comment, written through addMemberComment or addStaffReply. The owner's comment on a closed
 * ticket reopens it (open, resolved_at cleared). A staff reply moves the ticket to in-progress and
 * records the first response time.
 */
async function addComment(
  deps: AppDeps,
  author: CommentAuthor,
  ticket: repo.TicketRow,
  message: string,
  uploads: StoredUpload[],
  staff: boolean,
  options: CommentOptions = {},
) {
  const write = async (trx: repo.Db) => {
    const now = nowIso();
    const comment = await repo.insertComment(trx, {
      ticket_id: ticket.id,
      user_id: author.id,
      message,
      is_staff: staff ? 1 : 0,
      created_at: now,
    });
    const attachments = await repo.insertAttachments(
      trx,
      uploads.map((u) => ({ ...u, ticket_id: ticket.id, comment_id: comment.id, created_at: now })),
    );
    const set: Partial<repo.TicketRow> = {};
    if (staff) {
      if (ticket.status !== 'in-progress') set.status = 'in-progress';
      if (ticket.status === 'closed') set.resolved_at = null;
      if (ticket.first_response_at === null) set.first_response_at = now;
    } else if (ticket.status === 'closed') {
      set.status = 'open';
      set.resolved_at = null;
    }
    await repo.updateTicket(trx, ticket.id, { ...set, updated_at: now });
    await repo.insertActivities(trx, [
      {
        ticket_id: ticket.id,
        user_id: author.id,
        type: 'comment_added',
        field: 'comments',
        new_value: String(comment.id),
        created_at: now,
      },
      ...(set.status
        ? [
            {
              ticket_id: ticket.id,
              user_id: author.id,
              type: 'status_changed',
              field: 'status',
              old_value: ticket.status,
              new_value: set.status,
              created_at: now,
            },
          ]
        : []),
      ...attachments.map((a) => ({
        ticket_id: ticket.id,
        user_id: author.id,
        type: 'attachment_added',
        field: 'attachments',
        new_value: a.file_name,
        created_at: now,
      })),
    ]);
    // A staff reply reaches the owner by mail. The mail is a row of this transaction: it goes out
    // (later, by the worker) only with the reply.
    if (staff) {
      const to = await recipientOf(trx, ticket);
      const staffName = `${author.first_name} ${author.last_name}`.trim();
      if (to) await enqueueMail(trx, staffReplyMail(deps.config, ticket, to, { message, staffName }));
    }
    const people = new Map(author.id === null ? [] : [[author.id, { ...author, id: author.id }]]);
    return commentView(comment, attachments, people);
  };
  return options.inTransaction ? write(options.inTransaction) : deps.db.transaction().execute(write);
}

export async function attachmentFile(
  deps: AppDeps,
  storage: AttachmentStorage,
  ticket: repo.TicketRow,
  attachmentId: number,
) {
  const attachment = await repo.findAttachment(deps.db, ticket.id, attachmentId);
  if (!attachment) throw notFound(msg('tickets.attachment_not_found'));
  const file = await storage.open(attachment.storage_key);
  if (!file) throw notFound(msg('tickets.file_missing'));
  return { attachment, ...file };
}
