// What staff change on a ticket (the console's single change and each ticket of a bulk action):
// assignee, status, priority, category and tags, together in one transaction with their activity
// rows. Assigning an open ticket moves it to in-progress; closing records resolved_at; leaving
// closed clears it; a new priority recomputes the deadlines from creation. The owner hears of
// every status change by mail, written in the same transaction.
import { businessRule, msg } from '../../core/errors.js';
import type { AppDeps } from '../../core/deps.js';
import { nowIso } from '../../db/index.js';
import { isPostgres } from '../../db/schema-helpers.js';
import { enqueueMail } from '../../mail/outbox.js';
import { slaClockOf } from './calendar/clock.js';
import { recipientOf, statusMail } from './email/outbound.js';
import './messages.js';
import * as repo from './repository.js';
import { ticketNotFound } from './service.js';
import { deadlinesFor } from './sla.js';
import type { TicketPriority, TicketStatus } from './tables.js';

export interface StaffChange {
  status?: TicketStatus;
  assignee_id?: number | null;
  priority?: TicketPriority;
  category?: string | null;
  /** The ticket then has exactly these tags. */
  tags?: number[];
  /** One more tag (bulk "tag"). */
  add_tag?: number;
}

/** Applies the change to one ticket in a transaction of its own; false when nothing changed. */
export async function changeTicketAsStaff(deps: AppDeps, actor: { id: number }, id: number, change: StaffChange) {
  const clock = slaClockOf(deps.config);
  await clock.refresh(deps.db);
  return deps.db.transaction().execute(async (trx) => {
    // The row is locked on PostgreSQL so two staff changing one ticket see each other's change.
    const current = isPostgres(deps.db) ? await repo.lockTicket(trx, id) : await repo.findTicket(trx, id, null);
    if (!current) throw ticketNotFound(id);
    const now = nowIso();
    const set: Partial<repo.TicketRow> = {};
    const activities: repo.ActivityValues[] = [];
    const record = (type: string, field: string, from: string | null, to: string | null) =>
      activities.push({
        ticket_id: id,
        user_id: actor.id,
        type,
        field,
        old_value: from,
        new_value: to,
        created_at: now,
      });
    const idText = (v: number | null) => (v === null ? null : String(v));

    let status = change.status;
    const editsFields =
      (change.priority !== undefined && change.priority !== current.priority) ||
      (change.category !== undefined && change.category !== current.category);
    if (current.status === 'closed' && (status ?? 'closed') === 'closed' && editsFields)
      throw businessRule(msg('tickets.closed_not_editable'));
    if (change.assignee_id !== undefined && change.assignee_id !== current.assignee_id) {
      set.assignee_id = change.assignee_id;
      record('assigned', 'assignee_id', idText(current.assignee_id), idText(change.assignee_id));
      if (status === undefined && change.assignee_id !== null && current.status === 'open') status = 'in-progress';
    }
    if (status !== undefined && status !== current.status) {
      set.status = status;
      set.resolved_at = status === 'closed' ? now : null;
      record('status_changed', 'status', current.status, status);
    }
    if (change.priority !== undefined && change.priority !== current.priority) {
      set.priority = change.priority;
      Object.assign(set, deadlinesFor(change.priority, current.created_at, clock));
      record('field_updated', 'priority', current.priority, change.priority);
    }
    if (change.category !== undefined && change.category !== current.category) {
      set.category = change.category;
      record('field_updated', 'category', current.category, change.category);
    }
    if (change.tags !== undefined || change.add_tag !== undefined) {
      const before = await repo.tagsOf(trx, id);
      const wanted = change.tags ?? [...before.map((t) => t.id), change.add_tag!];
      const after = [...new Set(wanted)].sort((a, b) => a - b);
      const names = (rows: repo.TagRow[]) => rows.map((t) => t.name).join(', ');
      if (after.join(',') !== before.map((t) => t.id).join(',')) {
        await repo.replaceTags(trx, id, after);
        record('field_updated', 'tags', names(before), names(await repo.tagsOf(trx, id)));
      }
    }
    if (activities.length === 0) return false;
    await repo.updateTicket(trx, id, { ...set, updated_at: now });
    await repo.insertActivities(trx, activities);
    if (set.status) {
      const to = await recipientOf(trx, current);
      if (to) await enqueueMail(trx, statusMail(deps.config, current, to, set.status));
    }
    return true;
  });
}

/** The tags among these ids that exist (any order). */
export function existingTags(deps: AppDeps, ids: number[]): Promise<repo.TagRow[]> {
  return repo.findTagsByIds(deps.db, ids);
}
