// The console's service: the ticket as staff see it, their change to it, internal notes and bulk
// actions. Ticket data and the change itself come from the tickets module's service functions
// (tickets/service.ts, tickets/staff-changes.ts); the console's own SQL is in its query files.
// The queue, reports, presence and saved replies are the helpers beside it (queue.ts, …).
import type { AppDeps } from '../../core/deps.js';
import { ValidationError, type FieldMessages } from '../../core/errors.js';
import { fieldMessage } from '../../core/fields.js';
import { nowIso } from '../../db/index.js';
import { STAFF } from '../tickets/access.js';
import { person } from '../tickets/presenter.js';
import { ticketOf } from '../tickets/service.js';
import { changeTicketAsStaff, existingTags, type StaffChange } from '../tickets/staff-changes.js';
import { isStaffRole, usersByIds, type UserRecord } from '../users/service.js';
import { bulkChange, changeFor, checkValue, type BulkAction } from './bulk.js';
import './messages.js';
import * as repo from './ticket-query.js';
import { staffTicketView } from './ticket-view.js';

/** Any ticket (staff see every one), or the tickets 404. */
export function staffTicketOf(deps: AppDeps, id: number) {
  return ticketOf(deps, STAFF, id);
}

/** The ticket as staff see it (ticket-view.ts), or the tickets 404. */
export async function staffTicket(deps: AppDeps, id: number) {
  return staffTicketView(deps, await staffTicketOf(deps, id));
}

/** 422 (tickets form) unless the assignee is an active staff member and every tag exists. */
export async function checkChange(
  deps: AppDeps,
  change: { assignee_id?: number | null; tags?: number[] },
  names: { assignee: string; tags: string } = { assignee: 'assignee_id', tags: 'tags' },
): Promise<void> {
  const errors: FieldMessages = {};
  if (change.assignee_id !== undefined && change.assignee_id !== null) {
    const assignee = (await usersByIds(deps.db, [change.assignee_id])).get(change.assignee_id);
    if (!assignee || !isStaffRole(assignee)) errors[names.assignee] = [fieldMessage('in', names.assignee)];
  }
  if (change.tags?.length) {
    const known = new Set((await existingTags(deps, [...new Set(change.tags)])).map((t) => t.id));
    change.tags.forEach((id, index) => {
      const field = names.tags === 'tags' ? `tags.${index}` : names.tags;
      if (!known.has(id)) errors[field] = [fieldMessage('in', field)];
    });
  }
  if (Object.keys(errors).length) throw new ValidationError(errors, 'tickets');
}

/** The staff change (checked, then applied in one transaction); the ticket as staff now see it. */
export async function changeTicket(deps: AppDeps, actor: { id: number }, id: number, change: StaffChange) {
  await checkChange(deps, change);
  await changeTicketAsStaff(deps, actor, id, change);
  return staffTicket(deps, id);
}

/** A bulk action, its value checked first; each ticket changed on its own (bulk.ts). */
export async function bulkAction(
  deps: AppDeps,
  actor: { id: number },
  ids: number[],
  action: BulkAction,
  value: string | number | null | undefined,
) {
  checkValue(action, value);
  const change = changeFor(action, value);
  const names = { assignee: 'value', tags: 'value' };
  if (change.assignee_id) await checkChange(deps, change, names);
  if (change.add_tag) await checkChange(deps, { tags: [change.add_tag] }, names);
  return bulkChange(deps, actor, ids, change);
}

/** An internal note: staff-only. It touches no ticket row, activity, comment or mail, so no member's answer (or its cached form) changes. */
export async function addNote(deps: AppDeps, author: UserRecord, ticketId: number, message: string) {
  const note = await repo.insertNote(deps.db, {
    ticket_id: ticketId,
    user_id: author.id,
    message,
    created_at: nowIso(),
  });
  return {
    id: note.id,
    ticket_id: note.ticket_id,
    user: person(author),
    message: note.message,
    created_at: note.created_at,
  };
}
