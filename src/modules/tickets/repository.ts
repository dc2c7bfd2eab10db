// SQL of the tickets area. Functions take the database or a transaction as their first argument.
import { sql, type Expression, type Selectable, type ExpressionBuilder, type Kysely, type SqlBool, type Transaction } from 'kysely';
import { compiledQuery, compiledQueryByShape } from '../../db/compiled.js';
import type { Database } from '../../db/schema.js';
import { isPostgres } from '../../db/schema-helpers.js';
import { SLA_HOURS } from './sla.js';
import type { TicketAttachmentsTable, TicketPriority, TicketStatus, TicketsTable } from './tables.js';

export type Db = Kysely<Database> | Transaction<Database>;

export const TICKET_COLUMNS = [
  'id', 'tracking_code', 'user_id', 'email', 'subject', 'message', 'status', 'priority', 'category', 'source',
  'assignee_id', 'sla_deadline', 'first_response_due_at', 'first_response_at', 'resolved_at', 'created_at', 'updated_at',
] as const;

/** A ticket as read from the database. */
export type TicketRow = Selectable<TicketsTable>;

/** What a list row shows (the summary, its SLA status and, for staff, the owner): not the message. */
export const SUMMARY_COLUMNS = ['id', 'tracking_code', 'user_id', 'email', 'subject', 'status', 'priority', 'category', 'assignee_id', 'sla_deadline', 'resolved_at', 'created_at'] as const;

export type TicketSummaryRow = Pick<TicketRow, (typeof SUMMARY_COLUMNS)[number]>;

const SUMMARY_SELECTION = SUMMARY_COLUMNS.map((c) => `tickets.${c}` as const);

export interface Owner {
  id: number;
  email: string;
}

export type NewTicketRow = Omit<TicketsTable, 'id' | 'source'> & { source: string };

export async function insertTicket(db: Db, values: NewTicketRow): Promise<TicketRow> {
  return (await db.insertInto('tickets').values(values).returning(TICKET_COLUMNS).executeTakeFirstOrThrow()) as TicketRow;
}

export async function trackingCodeExists(db: Db, code: string): Promise<boolean> {
  return (await db.selectFrom('tickets').select('id').where('tracking_code', '=', code).executeTakeFirst()) !== undefined;
}

// The queries of the detail view (one ticket, its tags, attachments, comments and activities) and
// of the stats run on every such request; they are compiled once (db/compiled.ts).
const ticketById = compiledQuery((db, id: number) => db.selectFrom('tickets').select(TICKET_COLUMNS).where('id', '=', id));
/** user_id = ? OR email = ? (the email lower-cased): the spec's ownership rule. */
function ownedBy(ownerId: number, ownerEmail: string) {
  return (eb: ExpressionBuilder<Database, 'tickets'>): Expression<SqlBool> => eb.or([eb('tickets.user_id', '=', ownerId), eb('tickets.email', '=', ownerEmail)]);
}

const ownedTicketById = compiledQuery((db, id: number, ownerId: number, ownerEmail: string) =>
  db.selectFrom('tickets').select(TICKET_COLUMNS).where('id', '=', id).where(ownedBy(ownerId, ownerEmail)),
);

/** The ticket when the owner may see it (or any ticket when owner is null: staff). */
export async function findTicket(db: Db, id: number, owner: Owner | null): Promise<TicketRow | undefined> {
  const [row] = owner ? await ownedTicketById(db, id, owner.id, owner.email.toLowerCase()) : await ticketById(db, id);
  return row as TicketRow | undefined;
}

export async function updateTicket(db: Db, id: number, values: Partial<Omit<TicketRow, 'id'>>): Promise<void> {
  await db.updateTable('tickets').set(values).where('id', '=', id).execute();
}

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

export type SlaFilter = 'on_track' | 'at_risk' | 'breached' | 'met';

/** Escapes LIKE wildcards so user input matches literally (with ESCAPE '\'). */
export function likeContains(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
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

function listValues(owner: Owner | null, filters: TicketFilters): ListValues {
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
    // (count with q over 100 tickets: 55 instead of 74 µs). On SQLite the pattern is also not a
    // bare parameter: `column LIKE ?` makes SQLite mark the statement to be compiled again whenever
    // that parameter is bound, in case the new pattern allows an index range (its LIKE
    // optimization), which is every run. `(? || '')` is the same text, and the search statement
    // took 110 instead of 210 µs.
    const sqlite = !isPostgres(db);
    const column = (name: 'tracking_code' | 'subject' | 'message') => (sqlite ? sql.ref(`tickets.${name}`) : sql`lower(${sql.ref(`tickets.${name}`)})`);
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

/** A timestamp column as epoch milliseconds, exactly (ISO text on SQLite, timestamptz on PostgreSQL). */
function epochMs(db: Kysely<Database>, column: 'created_at' | 'sla_deadline') {
  const ref = sql.ref(`tickets.${column}`);
  return isPostgres(db)
    ? sql<number>`(extract(epoch from ${ref}) * 1000)`
    : sql<number>`(cast(strftime('%s', ${ref}) as integer) * 1000 + cast(substr(${ref}, 21, 3) as integer))`;
}

/** slaStatusOf (sla.ts) in SQL, with the same comparisons, at `nowMs`. */
function slaCondition(db: Kysely<Database>, status: SlaFilter, nowMs: number) {
  const done = sql<SqlBool>`(tickets.status = 'closed' and tickets.resolved_at is not null)`;
  const deadline = epochMs(db, 'sla_deadline');
  const left = sql`(${deadline} - ${nowMs})`;
  const warnBelow = sql`((${deadline} - ${epochMs(db, 'created_at')}) * ${sql.lit(SLA_HOURS.warningShare)})`;
  switch (status) {
    case 'met':
      return sql<SqlBool>`(${done} and tickets.resolved_at <= tickets.sla_deadline)`;
    case 'breached':
      return sql<SqlBool>`((${done} and tickets.resolved_at > tickets.sla_deadline) or (not ${done} and ${deadline} < ${nowMs}))`;
    case 'at_risk':
      return sql<SqlBool>`(not ${done} and ${deadline} >= ${nowMs} and ${left} < ${warnBelow})`;
    case 'on_track':
      return sql<SqlBool>`(not ${done} and ${deadline} >= ${nowMs} and ${left} >= ${warnBelow})`;
  }
}

/**
 * The caller's tickets are those with their user id plus those with their email and another (or
 * no) user id. Each half is counted and read through its own index, so the work per page is the
 * page, not every ticket the caller has.
 */
function ownershipHalves(v: Bound) {
  return [
    (eb: ExpressionBuilder<Database, 'tickets'>) => eb('tickets.user_id', '=', v.ownerId),
    (eb: ExpressionBuilder<Database, 'tickets'>) =>
      eb.and([eb('tickets.email', '=', v.ownerEmail), eb.or([eb('tickets.user_id', 'is', null), eb('tickets.user_id', '!=', v.ownerId)])]),
  ];
}

/** The number of tickets of the shape: for a caller, the ids of both halves (index-only) counted together. */
function countOf(db: Kysely<Database>, shape: ListShape, v: Bound) {
  if (!shape.owner) return filteredBy(db, shape, v).select((eb) => eb.fn.countAll<number>().as('count'));
  const [mine, byEmail] = ownershipHalves(v).map((half) => filteredBy(db, shape, v).where(half).select('tickets.id'));
  return db.selectFrom(mine!.unionAll(byEmail!).as('owned')).select((eb) => eb.fn.countAll<number>().as('count'));
}

type PageShape = ListShape & { limit: number; offset: number };

/** One page of summary rows, newest first; for a caller, the newest rows of each half (at most offset + limit from each, read in index order) merged. */
function pageOf(db: Kysely<Database>, shape: PageShape, v: Bound) {
  if (!shape.owner) {
    const rows = filteredBy(db, shape, v).select(SUMMARY_SELECTION);
    const ordered = shape.byDeadline ? rows.orderBy('tickets.sla_deadline', 'asc').orderBy('tickets.id', 'asc') : rows.orderBy('tickets.created_at', 'desc').orderBy('tickets.id', 'desc');
    return ordered.limit(sql.lit(shape.limit)).offset(sql.lit(shape.offset));
  }
  const [mine, byEmail] = ownershipHalves(v).map((half) =>
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
  return mine!.unionAll(byEmail!).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(sql.lit(shape.limit)).offset(sql.lit(shape.offset));
}

/**
 * A ticket's tags as a JSON array of {id, name} by id: text on SQLite, parsed by pg on PostgreSQL.
 * PostgreSQL is told the order. SQLite is not: ORDER BY inside json_group_array builds a temporary
 * b-tree for every row of the page (the search statement took 293 instead of 247 µs), and its
 * rows already come in tag id order, read through the (ticket_id, tag_id) primary key. A test
 * links tags out of id order and checks the order.
 */
function tagsJsonOf(db: Kysely<Database>, ticketId: Expression<number>) {
  const json = isPostgres(db)
    ? sql<unknown>`coalesce(json_agg(json_build_object('id', tags.id, 'name', tags.name) order by tags.id), '[]'::json)`
    : sql<unknown>`json_group_array(json_object('id', tags.id, 'name', tags.name))`;
  return db.selectFrom('ticket_tag').innerJoin('tags', 'tags.id', 'ticket_tag.tag_id').where('ticket_tag.ticket_id', '=', ticketId).select(json.as('tags'));
}

// Compiled once per shape (compiledQueryByShape): building these with Kysely took about a fifth
// of a list request's CPU time.
const countQuery = compiledQueryByShape(listShape, (db, shape, v) => countOf(db, shape, v));

export async function countTickets(db: Db, owner: Owner | null, filters: TicketFilters): Promise<number> {
  const [row] = await countQuery(db, listValues(owner, filters));
  return Number(row!.count);
}

type PageValues = ListValues & { limit: number; offset: number };

/**
 * The page, each row with its tags and the total count, in one statement (a request used to make
 * three: count, page, tags). The count is an uncorrelated subquery, run once. LIMIT and OFFSET
 * are literals (validated integers) and part of the shape: bound, they made SQLite compile the
 * statement again on every run (measured: 152 instead of 99 µs for the page).
 */
const pageWithTotalQuery = compiledQueryByShape(
  (v: PageValues): PageShape => {
    const shape = listShape(v);
    return { ...shape, key: `${shape.key}:${v.limit}:${v.offset}`, limit: v.limit, offset: v.offset };
  },
  (db, shape, v) => {
    if (shape.owner && shape.q) {
      // A search has to test every ticket of the caller for the count anyway: test each once,
      // keep the matches (materialized), and take the count and the page from them.
      const [mine, byEmail] = ownershipHalves(v).map((half) => filteredBy(db, shape, v).where(half).select(SUMMARY_SELECTION));
      return db
        .with((cte) => cte('matched').materialized(), () => mine!.unionAll(byEmail!))
        .selectFrom('matched')
        .selectAll('matched')
        .select((eb) => [eb.selectFrom('matched').select(eb.fn.countAll<number>().as('count')).as('total'), tagsJsonOf(db, eb.ref('matched.id')).as('tags_json')])
        .orderBy('matched.created_at', 'desc')
        .orderBy('matched.id', 'desc')
        .limit(sql.lit(shape.limit))
        .offset(sql.lit(shape.offset));
    }
    const page = db
      .selectFrom(pageOf(db, shape, v).as('page'))
      .selectAll('page')
      .select((eb) => [countOf(db, shape, v).as('total'), tagsJsonOf(db, eb.ref('page.id')).as('tags_json')]);
    return shape.byDeadline ? page.orderBy('page.sla_deadline', 'asc').orderBy('page.id', 'asc') : page.orderBy('page.created_at', 'desc').orderBy('page.id', 'desc');
  },
);

export interface TicketPage {
  total: number;
  rows: TicketSummaryRow[];
  tags: Map<number, TagRow[]>;
}

/** One page of tickets, newest first, with its tags and the total: the caller's, or everyone's for staff (owner null). */
export async function listTickets(db: Db, owner: Owner | null, filters: TicketFilters, limit: number, offset: number): Promise<TicketPage> {
  const found = await pageWithTotalQuery(db, { ...listValues(owner, filters), limit, offset });
  const tags = new Map<number, TagRow[]>();
  // The rows keep their total and tags_json columns: the views read only the summary's fields,
  // and copying every row without them (rest spread) was a visible part of the list's CPU time.
  const rows: TicketSummaryRow[] = found;
  for (const { id, tags_json } of found) tags.set(id, (typeof tags_json === 'string' ? JSON.parse(tags_json) : tags_json) as TagRow[]);
  // A page past the end has no row to carry the total.
  const total = found.length > 0 ? Number(found[0]!.total) : await countTickets(db, owner, filters);
  return { total, rows, tags };
}

const countsByStatus = compiledQuery((db, ownerId: number, ownerEmail: string) =>
  db
    .selectFrom('tickets')
    .where(ownedBy(ownerId, ownerEmail))
    .select(['status', (eb) => eb.fn.countAll<number>().as('count')])
    .groupBy('status'),
);

const ticketsVersionOf = compiledQuery((db, userId: number) => db.selectFrom('users').select('tickets_version').where('id', '=', userId));

/** users.tickets_version: moved by triggers with every change to a ticket in the user's list (migration 202611211300). */
export async function ticketsVersion(db: Db, userId: number): Promise<number | undefined> {
  const [row] = await ticketsVersionOf(db, userId);
  return row && Number(row.tickets_version);
}

export async function countByStatus(db: Db, owner: Owner): Promise<Record<string, number>> {
  const rows = await countsByStatus(db, owner.id, owner.email.toLowerCase());
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.count)]));
}

export interface PersonRow {
  id: number;
  first_name: string;
  last_name: string;
  email: string;
  is_admin: number;
}

export async function findPeople(db: Db, ids: number[]): Promise<Map<number, PersonRow>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await db.selectFrom('users').select(['id', 'first_name', 'last_name', 'email', 'is_admin']).where('id', 'in', unique).execute();
  return new Map(rows.map((r) => [r.id, r]));
}

export interface TagRow {
  id: number;
  name: string;
}

export async function findTagsByIds(db: Db, ids: number[]): Promise<TagRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('tags').select(['id', 'name']).where('id', 'in', ids).execute();
}

export async function attachTags(db: Db, ticketId: number, tagIds: number[]): Promise<void> {
  const unique = [...new Set(tagIds)];
  if (unique.length === 0) return;
  await db.insertInto('ticket_tag').values(unique.map((tag_id) => ({ ticket_id: ticketId, tag_id }))).execute();
}

const tagsOfTicket = compiledQuery((db, ticketId: number) =>
  db.selectFrom('ticket_tag').innerJoin('tags', 'tags.id', 'ticket_tag.tag_id').select(['tags.id', 'tags.name']).where('ticket_tag.ticket_id', '=', ticketId).orderBy('tags.id'),
);

/** The ticket's tags by id (list pages get theirs inside the page statement). */
export function tagsOf(db: Db, ticketId: number): Promise<TagRow[]> {
  return tagsOfTicket(db, ticketId);
}

export async function insertTag(db: Db, name: string, now: string): Promise<TagRow> {
  return db.insertInto('tags').values({ name, created_at: now }).returning(['id', 'name']).executeTakeFirstOrThrow();
}

export async function findTagByName(db: Db, name: string): Promise<TagRow | undefined> {
  return db.selectFrom('tags').select(['id', 'name']).where('name', '=', name).executeTakeFirst();
}

export interface ActivityValues {
  ticket_id: number;
  user_id: number | null;
  type: string;
  field?: string | null;
  old_value?: string | null;
  new_value?: string | null;
  created_at: string;
}

export async function insertActivities(db: Db, activities: ActivityValues[]): Promise<void> {
  if (activities.length === 0) return;
  await db
    .insertInto('ticket_activities')
    .values(activities.map((a) => ({ ...a, field: a.field ?? null, old_value: a.old_value ?? null, new_value: a.new_value ?? null })))
    .execute();
}

const activitiesOfTicket = compiledQuery((db, ticketId: number) =>
  db.selectFrom('ticket_activities').select(['id', 'user_id', 'type', 'field', 'old_value', 'new_value', 'created_at']).where('ticket_id', '=', ticketId).orderBy('id'),
);

export function activitiesOf(db: Db, ticketId: number) {
  return activitiesOfTicket(db, ticketId);
}

export interface CommentRow {
  id: number;
  ticket_id: number;
  user_id: number | null;
  message: string;
  is_staff: number;
  created_at: string;
}

export async function insertComment(db: Db, values: Omit<CommentRow, 'id'>): Promise<CommentRow> {
  return db.insertInto('ticket_comments').values(values).returning(['id', 'ticket_id', 'user_id', 'message', 'is_staff', 'created_at']).executeTakeFirstOrThrow();
}

const commentsOfTicket = compiledQuery((db, ticketId: number) =>
  db.selectFrom('ticket_comments').select(['id', 'ticket_id', 'user_id', 'message', 'is_staff', 'created_at']).where('ticket_id', '=', ticketId).orderBy('id'),
);

export function commentsOf(db: Db, ticketId: number): Promise<CommentRow[]> {
  return commentsOfTicket(db, ticketId);
}

export type AttachmentRow = Selectable<TicketAttachmentsTable>;

const ATTACHMENT_COLUMNS = ['id', 'ticket_id', 'comment_id', 'file_name', 'file_type', 'file_size', 'storage_key', 'created_at'] as const;

export async function insertAttachments(db: Db, rows: Array<Omit<AttachmentRow, 'id'>>): Promise<AttachmentRow[]> {
  if (rows.length === 0) return [];
  const inserted: AttachmentRow[] = [];
  // One by one keeps the ids in the client's order on both dialects.
  for (const row of rows) inserted.push(await db.insertInto('ticket_attachments').values(row).returning(ATTACHMENT_COLUMNS).executeTakeFirstOrThrow());
  return inserted;
}

const attachmentsOfTicket = compiledQuery((db, ticketId: number) => db.selectFrom('ticket_attachments').select(ATTACHMENT_COLUMNS).where('ticket_id', '=', ticketId).orderBy('id'));

export function attachmentsOf(db: Db, ticketId: number): Promise<AttachmentRow[]> {
  return attachmentsOfTicket(db, ticketId);
}

export async function findAttachment(db: Db, ticketId: number, attachmentId: number): Promise<AttachmentRow | undefined> {
  return db.selectFrom('ticket_attachments').select(ATTACHMENT_COLUMNS).where('id', '=', attachmentId).where('ticket_id', '=', ticketId).executeTakeFirst();
}
