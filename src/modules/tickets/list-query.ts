// The ticket list: one page with its tags and the total in one statement, compiled once per
// shape of the request (which filters it has), for a member (their tickets, access.ts) or staff.
import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import { compiledQueryByShape } from '../../db/compiled.js';
import type { Database } from '../../db/schema.js';
import { likeContains } from '../../db/like.js';
import { isPostgres } from '../../db/schema-helpers.js';
import { ownershipHalves, type TicketScope } from './access.js';
import { SUMMARY_COLUMNS, type Db, type TagRow, type TicketSummaryRow } from './rows.js';
import { slaCondition, type SlaFilter } from './sla-sql.js';
import type { TicketPriority, TicketStatus } from './tables.js';

const SUMMARY_SELECTION = SUMMARY_COLUMNS.map((c) => `tickets.${c}` as const);

export interface TicketFilters {
  status?: TicketStatus;
  priority?: TicketPriority;
  category?: string;
  q?: string;
  assignee_id?: number;
  /** Staff list: only rows whose SLA status (sla.ts, as `sla.status` names it) is this at `now`. */
  sla_status?: SlaFilter;
  /** Staff list: newest first (default) or soonest resolution deadline first. */
  sort?: 'created_at' | 'sla_deadline';
  /** Epoch ms the sla_status filter is evaluated at. */
  now?: number;
}

/** The values of a list or count query: the caller (none for staff) and the filters given. */
interface ListValues {
  ownerId?: number;
  ownerEmail?: string;
  status?: TicketStatus;
  priority?: TicketPriority;
  category?: string;
  pattern?: string;
  assigneeId?: number;
  slaStatus?: SlaFilter;
  nowMs?: number;
  byDeadline?: boolean;
}

/** Which of them a query has: its SQL depends on this and nothing else. */
interface ListShape {
  key: string;
  owner: boolean;
  status: boolean;
  priority: boolean;
  category: boolean;
  q: boolean;
  assignee: boolean;
  sla: SlaFilter | undefined;
  byDeadline: boolean;
}

function listValues(owner: TicketScope, filters: TicketFilters): ListValues {
  return {
    ownerId: owner?.id,
    ownerEmail: owner?.email.toLowerCase(),
    status: filters.status,
    priority: filters.priority,
    category: filters.category,
    pattern: filters.q ? likeContains(filters.q) : undefined,
    assigneeId: filters.assignee_id,
    slaStatus: filters.sla_status,
    nowMs: filters.sla_status ? (filters.now ?? Date.now()) : undefined,
    byDeadline: filters.sort === 'sla_deadline' || undefined,
  };
}

function listShape(v: ListValues): ListShape {
  const owner = v.ownerId !== undefined;
  const status = v.status !== undefined;
  const priority = v.priority !== undefined;
  const category = v.category !== undefined;
  const q = v.pattern !== undefined;
  const assignee = v.assigneeId !== undefined;
  const byDeadline = v.byDeadline === true;
  const key = `${+owner}${+status}${+priority}${+category}${+q}${+assignee}:${v.slaStatus ?? ''}:${+byDeadline}`;
  return { key, owner, status, priority, category, q, assignee, sla: v.slaStatus, byDeadline };
}

type Bound = { readonly [K in keyof ListValues]-?: NonNullable<ListValues[K]> };

/** The tickets matching the filters of the shape (ownership is added by the callers). */
function filteredBy(db: Kysely<Database>, shape: ListShape, v: Bound) {
  let query = db.selectFrom('tickets');
  if (shape.status) query = query.where('tickets.status', '=', v.status);
  if (shape.priority) query = query.where('tickets.priority', '=', v.priority);
  if (shape.category) query = query.where('tickets.category', '=', v.category);
  if (shape.assignee) query = query.where('tickets.assignee_id', '=', v.assigneeId);
  if (shape.sla) query = query.where(slaCondition(db, shape.sla, v.nowMs));
  if (shape.q) {
    // The pattern is lower-cased. PostgreSQL lower-cases the columns to match; SQLite's LIKE
    // already ignores ASCII case and its lower() changes nothing else, so there it is left out
    // (the count with q is faster without it). On SQLite the pattern is also not a
    // bare parameter: `column LIKE ?` makes SQLite mark the statement to be compiled again whenever
    // that parameter is bound, in case the new pattern allows an index range (its LIKE
    // optimization), which is every run. `(? || '')` is the same text, compiled once
    // (figures: docs/performance.md, "Tickets").
    const sqlite = !isPostgres(db);
    const column = (name: 'tracking_code' | 'subject' | 'message') =>
      sqlite ? sql.ref(`tickets.${name}`) : sql`lower(${sql.ref(`tickets.${name}`)})`;
    const pattern = sqlite ? sql`(${v.pattern} || '')` : sql`${v.pattern}`;
    query = query.where((eb) =>
      eb.or([
        sql<SqlBool>`${column('tracking_code')} like ${pattern} escape '\\'`,
        sql<SqlBool>`${column('subject')} like ${pattern} escape '\\'`,
        sql<SqlBool>`${column('message')} like ${pattern} escape '\\'`,
      ]),
    );
  }
  return query;
}

/** The number of tickets of the shape: for a caller, the ids of both halves (index-only) counted together. */
function countOf(db: Kysely<Database>, shape: ListShape, v: Bound) {
  if (!shape.owner) return filteredBy(db, shape, v).select((eb) => eb.fn.countAll<number>().as('count'));
  const [mine, byEmail] = ownershipHalves(v.ownerId, v.ownerEmail).map((half) =>
    filteredBy(db, shape, v).where(half).select('tickets.id'),
  );
  return db.selectFrom(mine!.unionAll(byEmail!).as('owned')).select((eb) => eb.fn.countAll<number>().as('count'));
}

type PageShape = ListShape & { limit: number; offset: number };

/** One page of summary rows, newest first; for a caller, the newest rows of each half (at most offset + limit from each, read in index order) merged. */
function pageOf(db: Kysely<Database>, shape: PageShape, v: Bound) {
  if (!shape.owner) {
    const rows = filteredBy(db, shape, v).select(SUMMARY_SELECTION);
    const ordered = shape.byDeadline
      ? rows.orderBy('tickets.sla_deadline', 'asc').orderBy('tickets.id', 'asc')
      : rows.orderBy('tickets.created_at', 'desc').orderBy('tickets.id', 'desc');
    return ordered.limit(sql.lit(shape.limit)).offset(sql.lit(shape.offset));
  }
  const [mine, byEmail] = ownershipHalves(v.ownerId, v.ownerEmail).map((half) =>
    db
      .selectFrom(
        filteredBy(db, shape, v)
          .where(half)
          .select(SUMMARY_SELECTION)
          .orderBy('tickets.created_at', 'desc')
          .orderBy('tickets.id', 'desc')
          .limit(sql.lit(shape.offset + shape.limit))
          .as('half'),
      )
      .selectAll('half'),
  );
  return mine!
    .unionAll(byEmail!)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(sql.lit(shape.limit))
    .offset(sql.lit(shape.offset));
}

/**
 * A ticket's tags as a JSON array of {id, name} by id: text on SQLite, parsed by pg on PostgreSQL.
 * PostgreSQL is told the order. SQLite is not: ORDER BY inside json_group_array builds a temporary
 * b-tree for every row of the page (a slower search statement), and its
 * rows already come in tag id order, read through the (ticket_id, tag_id) primary key. A test
 * links tags out of id order and checks the order.
 */
function tagsJsonOf(db: Kysely<Database>, ticketId: Expression<number>) {
  const json = isPostgres(db)
    ? sql<unknown>`coalesce(json_agg(json_build_object('id', tags.id, 'name', tags.name) order by tags.id), '[]'::json)`
    : sql<unknown>`json_group_array(json_object('id', tags.id, 'name', tags.name))`;
  return db
    .selectFrom('ticket_tag')
    .innerJoin('tags', 'tags.id', 'ticket_tag.tag_id')
    .where('ticket_tag.ticket_id', '=', ticketId)
    .select(json.as('tags'));
}

/** The shapes src/db/sql shows: a member's plain list, filtered, searching; staff's, by SLA and deadline. */
const LIST_EXAMPLES: ListValues[] = [
  { ownerId: 1, ownerEmail: 'member@example.com' },
  { ownerId: 1, ownerEmail: 'member@example.com', status: 'open', priority: 'high', category: 'payments' },
  { ownerId: 1, ownerEmail: 'member@example.com', pattern: '%refund%' },
  {},
  { assigneeId: 2, slaStatus: 'at_risk', nowMs: 0, byDeadline: true },
  { pattern: '%refund%' },
];

// Compiled once per shape (compiledQueryByShape): building these with Kysely took about a fifth
// of a list request's CPU time.
const countQuery = compiledQueryByShape(
  'tickets.listCount',
  listShape,
  (db, shape, v) => countOf(db, shape, v),
  LIST_EXAMPLES,
);

export async function countTickets(db: Db, owner: TicketScope, filters: TicketFilters): Promise<number> {
  const [row] = await countQuery(db, listValues(owner, filters));
  return Number(row!.count);
}

type PageValues = ListValues & { limit: number; offset: number };

/**
 * The page, each row with its tags and the total count, in one statement (a request used to make
 * three: count, page, tags). The count is an uncorrelated subquery, run once. LIMIT and OFFSET
 * are literals (validated integers) and part of the shape: bound, they made SQLite compile the
 * statement again on every run.
 */
const pageWithTotalQuery = compiledQueryByShape(
  'tickets.listPage',
  (v: PageValues): PageShape => {
    const shape = listShape(v);
    return { ...shape, key: `${shape.key}:${v.limit}:${v.offset}`, limit: v.limit, offset: v.offset };
  },
  (db, shape, v) => {
    if (shape.owner && shape.q) {
      // A search has to test every ticket of the caller for the count anyway: test each once,
      // keep the matches (materialized), and take the count and the page from them.
      const [mine, byEmail] = ownershipHalves(v.ownerId, v.ownerEmail).map((half) =>
        filteredBy(db, shape, v).where(half).select(SUMMARY_SELECTION),
      );
      return db
        .with(
          (cte) => cte('matched').materialized(),
          () => mine!.unionAll(byEmail!),
        )
        .selectFrom('matched')
        .selectAll('matched')
        .select((eb) => [
          eb.selectFrom('matched').select(eb.fn.countAll<number>().as('count')).as('total'),
          tagsJsonOf(db, eb.ref('matched.id')).as('tags_json'),
        ])
        .orderBy('matched.created_at', 'desc')
        .orderBy('matched.id', 'desc')
        .limit(sql.lit(shape.limit))
        .offset(sql.lit(shape.offset));
    }
    const page = db
      .selectFrom(pageOf(db, shape, v).as('page'))
      .selectAll('page')
      .select((eb) => [countOf(db, shape, v).as('total'), tagsJsonOf(db, eb.ref('page.id')).as('tags_json')]);
    return shape.byDeadline
      ? page.orderBy('page.sla_deadline', 'asc').orderBy('page.id', 'asc')
      : page.orderBy('page.created_at', 'desc').orderBy('page.id', 'desc');
  },
  LIST_EXAMPLES.map((v) => ({ ...v, limit: 15, offset: 0 })),
);

export interface TicketPage {
  total: number;
  rows: TicketSummaryRow[];
  tags: Map<number, TagRow[]>;
}

/** One page of tickets, newest first, with its tags and the total: the caller's, or everyone's for staff (owner null). */
export async function listTickets(
  db: Db,
  owner: TicketScope,
  filters: TicketFilters,
  limit: number,
  offset: number,
): Promise<TicketPage> {
  const found = await pageWithTotalQuery(db, { ...listValues(owner, filters), limit, offset });
  const tags = new Map<number, TagRow[]>();
  // The rows keep their total and tags_json columns: the views read only the summary's fields,
  // and copying every row without them (rest spread) was a visible part of the list's CPU time.
  const rows: TicketSummaryRow[] = found;
  for (const { id, tags_json } of found)
    tags.set(id, (typeof tags_json === 'string' ? JSON.parse(tags_json) : tags_json) as TagRow[]);
  // A page past the end has no row to carry the total.
  const total = found.length > 0 ? Number(found[0]!.total) : await countTickets(db, owner, filters);
  return { total, rows, tags };
}
