// Checks of a staff change that need the database (the assignee is staff, the tags exist), at the
// edge, where the request's language words the field errors.
import type { FastifyRequest } from 'fastify';
import { ValidationError, type FieldErrors } from '../../core/errors.js';
import type { AppDeps } from '../../core/deps.js';
import { isStaff } from '../../http/auth.js';
import { requestLocale } from '../../http/i18n.js';
import { fieldMessage } from '../../http/validation.js';
import { findTagsByIds } from '../tickets/repository.js';
import { usersByIds } from '../users/service.js';

/** 422 (tickets form) unless the assignee is an active staff member and every tag exists. */
export async function checkChange(
  deps: AppDeps,
  req: FastifyRequest,
  change: { assignee_id?: number | null; tags?: number[] },
  names: { assignee: string; tags: string } = { assignee: 'assignee_id', tags: 'tags' },
): Promise<void> {
  const locale = requestLocale(req);
  const errors: FieldErrors = {};
  if (change.assignee_id !== undefined && change.assignee_id !== null) {
    const assignee = (await usersByIds(deps.db, [change.assignee_id])).get(change.assignee_id);
    if (!assignee || !isStaff(assignee)) errors[names.assignee] = [fieldMessage(locale, 'in', names.assignee)];
  }
  if (change.tags?.length) {
    const known = new Set((await findTagsByIds(deps.db, [...new Set(change.tags)])).map((t) => t.id));
    change.tags.forEach((id, index) => {
      const field = names.tags === 'tags' ? `tags.${index}` : names.tags;
      if (!known.has(id)) errors[field] = [fieldMessage(locale, 'in', field)];
    });
  }
  if (Object.keys(errors).length) throw new ValidationError(errors, 'tickets');
}
