// SQL of the staff queue: the views, the filters and the orders of GET /api/admin/tickets, the
// views' counts and the keyset batches of the CSV export. Open tickets are read in the order of
// their next SLA deadline through the partial index of migration 202611251700, whose expression
// NEXT_DUE repeats exactly (both planners match an expression index by its text).
import { sql, type Kysely, type SqlBool } from 'kysely';
import type { Database } from '../../db/schema.js';
import { likeContains } from '../../db/like.js';
import { isPostgres } from '../../db/schema-helpers.js';
import { SUMMARY_COLUMNS, type TagRow } from '../tickets/rows.js';
import { openAtRiskCondition, slaCondition, type SlaFilter } from '../tickets/sla-sql.js';
import type { TicketPriority, TicketStatus } from '../tickets/tables.js';

export type ViewName = 'mine' | 'unassigned' | 'open' | 'at_risk' | 'closed';
export const VIEW_NAMES: ViewName[] = ['mine', 'unassigned', 'open', 'at_risk', 'closed'];
export type QueueSort = 'sla' | 'sla_deadline' | 'created_at' | 'updated_at';

export interface QueueFilters {
  view?: ViewName;
  status?: TicketStatus;
  priority?: TicketPriority;
  category?: string;
  tag?: number;
  assignee_id?: number;
  q?: string;
  sla_status?: SlaFilter;
}

/** Who asks and when: "mine" is the caller's, SLA conditions are evaluated at nowMs. */
export interface QueueContext {
  me: number;
  nowMs: number;
}

/** The next deadline of an open ticket: its first response until answered, then its resolution. */
export const NEXT_DUE = sql<string>`(case when first_response_at is null then first_response_due_at else sla_deadline end)`;
const NOT_CLOSED = sql<SqlBool>`tickets.status <> 'closed'`;

type Db = Kysely<Database>;

/** The view's condition (the console's five views). */
function viewCondition(db: Db, view: ViewName, context: QueueContext) {
  switch (view) {
    case 'mine':
      return sql<SqlBool>`(${NOT_CLOSED} and tickets.assignee_id = ${context.me})`;
    case 'unassigned':
      return sql<SqlBool>`(${NOT_CLOSED} and tickets.assignee_id is null)`;
    case 'open':
      return NOT_CLOSED;
    case 'at_risk':
      return sql<SqlBool>`(${NOT_CLOSED} and ${openAtRiskCondition(db, context.nowMs)})`;
    case 'closed':
      return sql<SqlBool>`tickets.status = 'closed'`;
  }
}

/** The tickets matching the filters (every filter is ANDed with the view). */
export function filtered(db: Db, filters: QueueFilters, context: QueueContext, openOnly = false) {
  let query = db.selectFrom('tickets');
  if (filters.view) query = query.where(viewCondition(db, filters.view, context));
  // Ordered by the next deadline: only open tickets have one, and the partial index wants the
  // condition spelled as its own WHERE.
  if (openOnly) query = query.where(NOT_CLOSED);
  if (filters.status) query = query.where('tickets.status', '=', filters.status);
  if (filters.priority) query = query.where('tickets.priority', '=', filters.priority);
  if (filters.category !== undefined) query = query.where('tickets.category', '=', filters.category);
  if (filters.assignee_id !== undefined) query = query.where('tickets.assignee_id', '=', filters.assignee_id);
  if (filters.sla_status) query = query.where(slaCondition(db, filters.sla_status, context.nowMs));
  if (filters.tag !== undefined) {
    const tag = filters.tag;
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('ticket_tag')
          .select(sql.lit(1).as('one'))
          .whereRef('ticket_tag.ticket_id', '=', 'tickets.id')
          .where('ticket_tag.tag_id', '=', tag),
      ),
    );
  }
  if (filters.q) {
    const pattern = likeContains(filters.q);
    const column = (name: 'tracking_code' | 'subject' | 'message') =>
      isPostgres(db) ? sql`lower(${sql.ref(`tickets.${name}`)})` : sql.ref(`tickets.${name}`);
    query = query.where((eb) =>
      eb.or(
        (['tracking_code', 'subject', 'message'] as const).map(
          (name) => sql<SqlBool>`${column(name)} like ${pattern} escape '\\'`,
        ),
      ),
    );
  }
  return query;
}

const ROW_COLUMNS = [...SUMMARY_COLUMNS.map((c) => `tickets.${c}` as const), 'tickets.updated_at'] as const;

export interface QueueRow {
  id: number;
  tracking_code: string;
  user_id: number | null;
  email: string | null;
  subject: string;
  status: TicketStatus;
  priority: TicketPriority;
  category: string | null;
  assignee_id: number | null;
  sla_deadline: string;
  resolved_at: string | null;
  created_at: string;
  updated_at: string;
  first_response_due_at: string;
  first_response_at: string | null;
}

/** Whether the filters already leave closed tickets out (then the open tickets' indexes serve the order). */
function openOnly(filters: QueueFilters): boolean {
  const openView = filters.view !== undefined && filters.view !== 'closed';
  return openView || filters.status === 'open' || filters.status === 'in-progress';
}

function closedOnly(filters: QueueFilters): boolean {
  return filters.view === 'closed' || filters.status === 'closed';
}

/** One page of the queue in the sort's order. */
export async function queuePage(
  db: Db,
  filters: QueueFilters,
  context: QueueContext,
  sort: QueueSort,
  limit: number,
  offset: number,
): Promise<QueueRow[]> {
  const byNextDue = sort === 'sla' && openOnly(filters);
  let query = filtered(db, filters, context, byNextDue).select([
    ...ROW_COLUMNS,
    'tickets.first_response_due_at',
    'tickets.first_response_at',
  ]);
  if (byNextDue) query = query.orderBy(NEXT_DUE).orderBy('tickets.id');
  else if (sort === 'sla' && !closedOnly(filters)) {
    // Open and closed together: open ones by their next deadline, then closed ones, latest change first.
    const closed = sql<number>`(case when tickets.status = 'closed' then 1 else 0 end)`;
    const due = sql<string | null>`(case when tickets.status = 'closed' then null else ${NEXT_DUE} end)`;
    query = query.orderBy(closed).orderBy(due).orderBy('tickets.updated_at', 'desc').orderBy('tickets.id', 'desc');
  } else if (sort === 'sla_deadline') query = query.orderBy('tickets.sla_deadline').orderBy('tickets.id');
  else if (sort === 'updated_at' || sort === 'sla')
    query = query.orderBy('tickets.updated_at', 'desc').orderBy('tickets.id', 'desc');
  else query = query.orderBy('tickets.created_at', 'desc').orderBy('tickets.id', 'desc');
  return (await query.limit(limit).offset(offset).execute()) as QueueRow[];
}

export async function queueCount(db: Db, filters: QueueFilters, context: QueueContext): Promise<number> {
  const row = await filtered(db, filters, context)
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Each view's count in one statement (one index read per view). */
export async function viewCounts(db: Db, context: QueueContext): Promise<Record<ViewName, number>> {
  const counts = VIEW_NAMES.map((view) =>
    filtered(db, { view }, context)
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .as(view),
  );
  const row = (await db.selectNoFrom(counts as never).executeTakeFirstOrThrow()) as Record<ViewName, number | string>;
  return Object.fromEntries(VIEW_NAMES.map((v) => [v, Number(row[v])])) as Record<ViewName, number>;
}

/** The tags of the given tickets, in tag id order. */
export async function tagsOfTickets(db: Db, ids: number[]): Promise<Map<number, TagRow[]>> {
  const tags = new Map<number, TagRow[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return tags;
  const rows = await db
    .selectFrom('ticket_tag')
    .innerJoin('tags', 'tags.id', 'ticket_tag.tag_id')
    .select(['ticket_tag.ticket_id', 'tags.id', 'tags.name'])
    .where('ticket_tag.ticket_id', 'in', ids)
    .orderBy('tags.id')
    .execute();
  for (const r of rows) tags.get(r.ticket_id)?.push({ id: r.id, name: r.name });
  return tags;
}

export function allTags(db: Db): Promise<TagRow[]> {
  return db.selectFrom('tags').select(['id', 'name']).orderBy('name').orderBy('id').execute();
}

/** The export's next batch: rows after `afterId`, in id order (a keyset, so memory stays one batch). */
export async function exportBatch(
  db: Db,
  filters: QueueFilters,
  context: QueueContext,
  afterId: number,
  size: number,
): Promise<QueueRow[]> {
  return (await filtered(db, filters, context)
    .select([...ROW_COLUMNS, 'tickets.first_response_due_at', 'tickets.first_response_at'])
    .where('tickets.id', '>', afterId)
    .orderBy('tickets.id')
    .limit(size)
    .execute()) as QueueRow[];
}
