// Checks of a staff change that need the database: the assignee is staff, the tags exist.
import { ValidationError, type FieldMessages } from '../../core/errors.js';
import type { AppDeps } from '../../core/deps.js';
import { fieldMessage } from '../../core/fields.js';
import { findTagsByIds } from '../tickets/repository.js';
import { isStaffRole, usersByIds } from '../users/service.js';

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
    const known = new Set((await findTagsByIds(deps.db, [...new Set(change.tags)])).map((t) => t.id));
    change.tags.forEach((id, index) => {
      const field = names.tags === 'tags' ? `tags.${index}` : names.tags;
      if (!known.has(id)) errors[field] = [fieldMessage('in', field)];
    });
  }
  if (Object.keys(errors).length) throw new ValidationError(errors, 'tickets');
}
