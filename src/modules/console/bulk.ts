// Bulk actions: one change applied to many tickets, each ticket in a transaction of its own. A
// ticket that cannot take the change (gone, closed) is reported and the others go on: one bad row
// never undoes the rest, and a retry of the same request changes nothing twice (each change sets
// a state; a ticket already in it counts as updated and gets no activity).
import type { AppDeps } from '../../core/deps.js';
import { ValidationError } from '../../core/errors.js';
import { fieldMessage } from '../../core/fields.js';
import { canonicalId } from '../../core/ids.js';
import { changeTicketAsStaff, type StaffChange } from '../tickets/staff-changes.js';

export type BulkAction = 'assign' | 'status' | 'priority' | 'tag' | 'close';

const VALUES: Partial<Record<BulkAction, string[]>> = {
  status: ['open', 'in-progress', 'closed'],
  priority: ['low', 'normal', 'high'],
};

/** The value the action needs, or the tickets 422 on value. */
export function checkValue(action: BulkAction, value: unknown): void {
  const refuse = (rule: 'required' | 'in' | 'integer') => {
    throw new ValidationError({ value: [fieldMessage(rule, 'value')] }, 'tickets');
  };
  if (action === 'close') return;
  if (value === undefined || (value === null && action !== 'assign')) refuse('required');
  const allowed = VALUES[action];
  if (allowed && !allowed.includes(value as string)) refuse('in');
  if ((action === 'assign' && value !== null) || action === 'tag')
    if (canonicalId(String(value)) === undefined) refuse('integer');
}

/** The change a bulk action makes to each ticket (the value already checked). */
export function changeFor(action: BulkAction, value: string | number | null | undefined): StaffChange {
  switch (action) {
    case 'assign':
      return { assignee_id: value === null || value === undefined ? null : Number(value) };
    case 'status':
      return { status: value as StaffChange['status'] };
    case 'priority':
      return { priority: value as StaffChange['priority'] };
    case 'tag':
      return { add_tag: Number(value) };
    case 'close':
      return { status: 'closed' };
  }
}

export async function bulkChange(deps: AppDeps, actor: { id: number }, ids: number[], change: StaffChange) {
  const updated: number[] = [];
  const failed: { id: number; error: unknown }[] = [];
  for (const id of [...new Set(ids)]) {
    try {
      await changeTicketAsStaff(deps, actor, id, change);
      updated.push(id);
    } catch (error) {
      failed.push({ id, error });
    }
  }
  return { updated, failed };
}
