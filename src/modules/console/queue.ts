// The staff queue: a page of the list with the owner, assignee and tags of each row, its SLA
// status and next deadline; the views' counts; the tags.
import type { AppDeps } from '../../core/deps.js';
import { pageMeta } from '../../core/pagination.js';
import { usersByIds } from '../users/service.js';
import { staffSummaryView } from '../tickets/presenter.js';
import type { TagRow } from '../tickets/rows.js';
import { slaStatusOf, type SlaStatus } from '../tickets/sla.js';
import * as query from './queue-query.js';

const SLA_OBJECT_STATUS: Record<SlaStatus, 'on_track' | 'at_risk' | 'breached' | 'met'> = {
  on_time: 'on_track',
  warning: 'at_risk',
  overdue: 'breached',
  missed: 'breached',
  met: 'met',
};

/** The next deadline of a ticket: none once closed; the first response one until answered. */
export function nextDueAt(row: query.QueueRow): string | null {
  if (row.status === 'closed') return null;
  return row.first_response_at === null ? row.first_response_due_at : row.sla_deadline;
}

/** A queue row as the list and the export show it. */
export function queueRowView(
  row: query.QueueRow,
  tags: TagRow[],
  people: Awaited<ReturnType<typeof usersByIds>>,
  now: number,
) {
  return {
    ...staffSummaryView(row, tags, people, now),
    sla: { status: SLA_OBJECT_STATUS[slaStatusOf(row, now)], next_due_at: nextDueAt(row) },
    last_activity_at: row.updated_at,
  };
}

/** The people a page of rows names: owners and assignees. */
export function peopleOf(deps: AppDeps, rows: query.QueueRow[]) {
  const ids = new Set<number>();
  for (const r of rows) {
    if (r.user_id !== null) ids.add(r.user_id);
    if (r.assignee_id !== null) ids.add(r.assignee_id);
  }
  return usersByIds(deps.db, [...ids]);
}

export async function queuePage(
  deps: AppDeps,
  me: number,
  filters: query.QueueFilters,
  sort: query.QueueSort,
  page: number,
  perPage: number,
) {
  const now = Date.now();
  const context = { me, nowMs: now };
  const [rows, total] = await Promise.all([
    query.queuePage(deps.db, filters, context, sort, perPage, (page - 1) * perPage),
    query.queueCount(deps.db, filters, context),
  ]);
  const [tags, people] = await Promise.all([
    query.tagsOfTickets(
      deps.db,
      rows.map((r) => r.id),
    ),
    peopleOf(deps, rows),
  ]);
  return {
    success: true,
    data: rows.map((r) => queueRowView(r, tags.get(r.id) ?? [], people, now)),
    meta: pageMeta(total, page, perPage),
  };
}

export async function viewCounts(deps: AppDeps, me: number) {
  const counts = await query.viewCounts(deps.db, { me, nowMs: Date.now() });
  return query.VIEW_NAMES.map((view) => ({ view, count: counts[view] }));
}

export function allTags(deps: AppDeps) {
  return query.allTags(deps.db);
}
