// SQL of the tickets area. Functions take the database or a transaction as their first argument.
import { sql, type Selectable, type ExpressionBuilder, type Kysely, type SqlBool, type Transaction } from 'kysely';
import { compiledQuery, compiledQueryByShape } from '../../db/compiled.js';
import type { Database } from '../../db/schema.js';
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
/** user_id = ? OR email = ?: the spec's ownership rule. */
const ownedTicketById = compiledQuery((db, id: number, ownerId: number, ownerEmail: string) =>
  db
    .selectFrom('tickets')
    .select(TICKET_COLUMNS)
    .where('id', '=', id)
    .where((eb) => eb.or([eb('tickets.user_id', '=', ownerId), eb('tickets.email', '=', ownerEmail)])),
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
}

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
  };
}

function listShape(v: ListValues): ListShape {
  const shape = {
    owner: v.ownerId !== undefined,
    status: v.status !== undefined,
    priority: v.priority !== undefined,
    category: v.category !== undefined,
    q: v.pattern !== undefined,
    assignee: v.assigneeId !== undefined,
  };
  return { ...shape, key: Object.values(shape).map((present) => (present ? 1 : 0)).join('') };
}

type Bound = { readonly [K in keyof ListValues]-?: NonNullable<ListValues[K]> };

/** The tickets matching the filters of the shape (ownership is added by the callers). */
function filteredBy(db: Kysely<Database>, shape: ListShape, v: Bound) {
  let query = db.selectFrom('tickets');
  if (shape.status) query = query.where('tickets.status', '=', v.status);
  if (shape.priority) query = query.where('tickets.priority', '=', v.priority);
  if (shape.category) query = query.where('tickets.category', '=', v.category);
  if (shape.assignee) query = query.where('tickets.assignee_id', '=', v.assigneeId);
  if (shape.q) {
    query = query.where((eb) =>
      eb.or([
        sql<SqlBool>`lower(tickets.tracking_code) like ${v.pattern} escape '\\'`,
        sql<SqlBool>`lower(tickets.subject) like ${v.pattern} escape '\\'`,
        sql<SqlBool>`lower(tickets.message) like ${v.pattern} escape '\\'`,
      ]),
    );
  }
  return query;
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

// Both queries below are compiled once per shape (compiledQueryByShape): building them with
// Kysely took about a fifth of a list request's CPU time.
const countQuery = compiledQueryByShape(listShape, (db, shape, v) => {
  if (!shape.owner) return filteredBy(db, shape, v).select((eb) => eb.fn.countAll<number>().as('count'));
  // One statement: the ids of both halves (index-only) counted together.
  const [mine, byEmail] = ownershipHalves(v).map((half) => filteredBy(db, shape, v).where(half).select('tickets.id'));
  return db.selectFrom(mine!.unionAll(byEmail!).as('owned')).select((eb) => eb.fn.countAll<number>().as('count'));
});

export async function countTickets(db: Db, owner: Owner | null, filters: TicketFilters): Promise<number> {
  const [row] = await countQuery(db, listValues(owner, filters));
  return Number(row!.count);
}

type PageValues = ListValues & { limit: number; offset: number };

/**
 * LIMIT and OFFSET are literals (validated integers) and part of the shape: bound, they made
 * SQLite compile the statement again on every run (measured: 152 instead of 99 µs for this one).
 */
const pageQuery = compiledQueryByShape(
  (v: PageValues) => {
    const shape = listShape(v);
    return { ...shape, key: `${shape.key}:${v.limit}:${v.offset}`, limit: v.limit, offset: v.offset };
  },
  (db, shape, v) => {
    const columns = SUMMARY_COLUMNS.map((c) => `tickets.${c}` as const);
    if (!shape.owner) {
      return filteredBy(db, shape, v)
        .select(columns)
        .orderBy('tickets.created_at', 'desc')
        .orderBy('tickets.id', 'desc')
        .limit(sql.lit(shape.limit))
        .offset(sql.lit(shape.offset));
    }
    // The newest rows of each half (at most offset + limit from each, read in index order), merged.
    const [mine, byEmail] = ownershipHalves(v).map((half) =>
      db
        .selectFrom(
          filteredBy(db, shape, v)
            .where(half)
            .select(columns)
            .orderBy('tickets.created_at', 'desc')
            .orderBy('tickets.id', 'desc')
            .limit(sql.lit(shape.offset + shape.limit))
            .as('half'),
        )
        .selectAll('half'),
    );
    return mine!.unionAll(byEmail!).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(sql.lit(shape.limit)).offset(sql.lit(shape.offset));
  },
);

/** One page of tickets, newest first: the caller's, or everyone's for staff (owner null). */
export async function listTickets(db: Db, owner: Owner | null, filters: TicketFilters, limit: number, offset: number): Promise<TicketSummaryRow[]> {
  return (await pageQuery(db, { ...listValues(owner, filters), limit, offset })) as TicketSummaryRow[];
}

const countsByStatus = compiledQuery((db, ownerId: number, ownerEmail: string) =>
  db
    .selectFrom('tickets')
    .where((eb) => eb.or([eb('tickets.user_id', '=', ownerId), eb('tickets.email', '=', ownerEmail)]))
    .select(['status', (eb) => eb.fn.countAll<number>().as('count')])
    .groupBy('status'),
);

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

const tagsOfOneTicket = compiledQuery((db, ticketId: number) =>
  db
    .selectFrom('ticket_tag')
    .innerJoin('tags', 'tags.id', 'ticket_tag.tag_id')
    .select(['ticket_tag.ticket_id', 'tags.id', 'tags.name'])
    .where('ticket_tag.ticket_id', '=', ticketId)
    .orderBy('tags.id'),
);

export async function tagsOfTickets(db: Db, ticketIds: number[]): Promise<Map<number, TagRow[]>> {
  const result = new Map<number, TagRow[]>(ticketIds.map((id) => [id, []]));
  if (ticketIds.length === 0) return result;
  const rows =
    ticketIds.length === 1
      ? await tagsOfOneTicket(db, ticketIds[0]!)
      : await db
          .selectFrom('ticket_tag')
          .innerJoin('tags', 'tags.id', 'ticket_tag.tag_id')
          .select(['ticket_tag.ticket_id', 'tags.id', 'tags.name'])
          .where('ticket_tag.ticket_id', 'in', ticketIds)
          .orderBy('tags.id')
          .execute();
  for (const row of rows) result.get(row.ticket_id)?.push({ id: row.id, name: row.name });
  return result;
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
