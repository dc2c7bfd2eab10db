// SQL of the tickets area. Functions take the database or a transaction as their first argument.
import { sql, type Expression, type Selectable, type ExpressionBuilder, type Kysely, type SqlBool, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { TicketAttachmentsTable, TicketPriority, TicketStatus, TicketsTable } from './tables.js';

export type Db = Kysely<Database> | Transaction<Database>;

export const TICKET_COLUMNS = [
  'id', 'tracking_code', 'user_id', 'email', 'subject', 'message', 'status', 'priority', 'category', 'source',
  'assignee_id', 'sla_deadline', 'first_response_due_at', 'first_response_at', 'resolved_at', 'created_at', 'updated_at',
] as const;

/** A ticket as read from the database. */
export type TicketRow = Selectable<TicketsTable>;

export interface Owner {
  id: number;
  email: string;
}

/** user_id = ? OR email = ?: the spec's ownership rule. */
function ownedBy(owner: Owner) {
  return (eb: ExpressionBuilder<Database, 'tickets'>): Expression<SqlBool> =>
    eb.or([eb('tickets.user_id', '=', owner.id), eb('tickets.email', '=', owner.email.toLowerCase())]);
}

export type NewTicketRow = Omit<TicketsTable, 'id' | 'source'> & { source: string };

export async function insertTicket(db: Db, values: NewTicketRow): Promise<TicketRow> {
  return (await db.insertInto('tickets').values(values).returning(TICKET_COLUMNS).executeTakeFirstOrThrow()) as TicketRow;
}

export async function trackingCodeExists(db: Db, code: string): Promise<boolean> {
  return (await db.selectFrom('tickets').select('id').where('tracking_code', '=', code).executeTakeFirst()) !== undefined;
}

/** The ticket when the owner may see it (or any ticket when owner is null: staff). */
export async function findTicket(db: Db, id: number, owner: Owner | null): Promise<TicketRow | undefined> {
  let query = db.selectFrom('tickets').select(TICKET_COLUMNS).where('id', '=', id);
  if (owner) query = query.where(ownedBy(owner));
  return (await query.executeTakeFirst()) as TicketRow | undefined;
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

function filtered(db: Db, owner: Owner | null, filters: TicketFilters) {
  let query = db.selectFrom('tickets');
  if (owner) query = query.where(ownedBy(owner));
  if (filters.status) query = query.where('tickets.status', '=', filters.status);
  if (filters.priority) query = query.where('tickets.priority', '=', filters.priority);
  if (filters.category !== undefined) query = query.where('tickets.category', '=', filters.category);
  if (filters.assignee_id !== undefined) query = query.where('tickets.assignee_id', '=', filters.assignee_id);
  if (filters.q) {
    const pattern = likeContains(filters.q);
    query = query.where((eb) =>
      eb.or([
        sql<SqlBool>`lower(tickets.tracking_code) like ${pattern} escape '\\'`,
        sql<SqlBool>`lower(tickets.subject) like ${pattern} escape '\\'`,
        sql<SqlBool>`lower(tickets.message) like ${pattern} escape '\\'`,
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
function ownershipHalves(owner: Owner) {
  const email = owner.email.toLowerCase();
  return [
    (eb: ExpressionBuilder<Database, 'tickets'>) => eb('tickets.user_id', '=', owner.id),
    (eb: ExpressionBuilder<Database, 'tickets'>) =>
      eb.and([eb('tickets.email', '=', email), eb.or([eb('tickets.user_id', 'is', null), eb('tickets.user_id', '!=', owner.id)])]),
  ];
}

export async function countTickets(db: Db, owner: Owner | null, filters: TicketFilters): Promise<number> {
  if (!owner) {
    return Number((await filtered(db, null, filters).select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow()).count);
  }
  // One statement: the ids of both halves (index-only) counted together.
  const [mine, byEmail] = ownershipHalves(owner).map((half) => filtered(db, null, filters).where(half).select('tickets.id'));
  const row = await db
    .selectFrom(mine!.unionAll(byEmail!).as('owned'))
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function listTickets(db: Db, owner: Owner | null, filters: TicketFilters, limit: number, offset: number): Promise<TicketRow[]> {
  if (!owner) {
    return (await filtered(db, null, filters)
      .select(TICKET_COLUMNS.map((c) => `tickets.${c}` as const))
      .orderBy('tickets.created_at', 'desc')
      .orderBy('tickets.id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute()) as TicketRow[];
  }
  // The newest rows of each half (at most offset + limit from each, read in index order), merged.
  const [mine, byEmail] = ownershipHalves(owner).map((half) =>
    db
      .selectFrom(
        filtered(db, null, filters)
          .where(half)
          .select(TICKET_COLUMNS.map((c) => `tickets.${c}` as const))
          .orderBy('tickets.created_at', 'desc')
          .orderBy('tickets.id', 'desc')
          .limit(offset + limit)
          .as('half'),
      )
      .selectAll('half'),
  );
  return (await mine!.unionAll(byEmail!).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute()) as TicketRow[];
}

export async function countByStatus(db: Db, owner: Owner): Promise<Record<string, number>> {
  const rows = await db
    .selectFrom('tickets')
    .where(ownedBy(owner))
    .select(['status', (eb) => eb.fn.countAll<number>().as('count')])
    .groupBy('status')
    .execute();
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

export async function tagsOfTickets(db: Db, ticketIds: number[]): Promise<Map<number, TagRow[]>> {
  const result = new Map<number, TagRow[]>(ticketIds.map((id) => [id, []]));
  if (ticketIds.length === 0) return result;
  const rows = await db
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

export async function activitiesOf(db: Db, ticketId: number) {
  return db
    .selectFrom('ticket_activities')
    .select(['id', 'user_id', 'type', 'field', 'old_value', 'new_value', 'created_at'])
    .where('ticket_id', '=', ticketId)
    .orderBy('id')
    .execute();
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

export async function commentsOf(db: Db, ticketId: number): Promise<CommentRow[]> {
  return db
    .selectFrom('ticket_comments')
    .select(['id', 'ticket_id', 'user_id', 'message', 'is_staff', 'created_at'])
    .where('ticket_id', '=', ticketId)
    .orderBy('id')
    .execute();
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

export async function attachmentsOf(db: Db, ticketId: number): Promise<AttachmentRow[]> {
  return db.selectFrom('ticket_attachments').select(ATTACHMENT_COLUMNS).where('ticket_id', '=', ticketId).orderBy('id').execute();
}

export async function findAttachment(db: Db, ticketId: number, attachmentId: number): Promise<AttachmentRow | undefined> {
  return db.selectFrom('ticket_attachments').select(ATTACHMENT_COLUMNS).where('id', '=', attachmentId).where('ticket_id', '=', ticketId).executeTakeFirst();
}
