// Staff workflow: status and assignee changes by admins. Assigning an open ticket moves it to
// in-progress; closing records resolved_at; leaving closed clears it. Replies go through
// addComment(..., staff = true) in changes.ts.
import { nowIso } from '../../db/index.js';
import { ValidationError, businessRule, msg } from '../../core/errors.js';
import { fieldMessage } from '../../core/fields.js';
import type { AppDeps } from '../../core/deps.js';
import { isStaffRole, usersByIds } from '../users/service.js';
import { enqueueMail } from '../../mail/outbox.js';
import { recipientOf, statusMail } from './email/outbound.js';
import * as repo from './repository.js';
import type { Caller } from './service.js';
import type { TicketStatus } from './tables.js';

export interface StaffChanges {
  status?: TicketStatus;
  assignee_id?: number | null;
}

export async function staffUpdate(
  deps: AppDeps,
  actor: Caller,
  ticket: repo.TicketRow,
  changes: StaffChanges,
): Promise<void> {
  if (changes.assignee_id !== undefined && changes.assignee_id !== null) {
    const assignee = (await usersByIds(deps.db, [changes.assignee_id])).get(changes.assignee_id);
    // Only staff (support and admin) work tickets: anyone else is "invalid", like an id that does not exist.
    if (!assignee || !isStaffRole(assignee)) {
      throw new ValidationError({ assignee_id: [fieldMessage('in', 'assignee_id')] }, 'tickets');
    }
  }
  await deps.db.transaction().execute(async (trx) => {
    const current = await repo.findTicket(trx, ticket.id, null);
    if (!current) throw businessRule(msg('tickets.closed_not_editable'));
    const now = nowIso();
    const set: Partial<repo.TicketRow> = {};
    const activities: repo.ActivityValues[] = [];
    if (changes.assignee_id !== undefined && changes.assignee_id !== current.assignee_id) {
      set.assignee_id = changes.assignee_id;
      activities.push({
        ticket_id: current.id,
        user_id: actor.id,
        type: 'assigned',
        field: 'assignee_id',
        old_value: current.assignee_id === null ? null : String(current.assignee_id),
        new_value: changes.assignee_id === null ? null : String(changes.assignee_id),
        created_at: now,
      });
    }
    let status = changes.status;
    if (status === undefined && set.assignee_id && current.status === 'open') status = 'in-progress';
    if (status !== undefined && status !== current.status) {
      set.status = status;
      set.resolved_at = status === 'closed' ? now : null;
      activities.push({
        ticket_id: current.id,
        user_id: actor.id,
        type: 'status_changed',
        field: 'status',
        old_value: current.status,
        new_value: status,
        created_at: now,
      });
    }
    if (activities.length === 0) return;
    await repo.updateTicket(trx, current.id, { ...set, updated_at: now });
    await repo.insertActivities(trx, activities);
    // The owner hears of every status change staff make (mail written in this transaction).
    if (set.status) {
      const to = await recipientOf(trx, current);
      if (to) await enqueueMail(trx, statusMail(deps.config, current, to, set.status));
    }
  });
}
