// SQL of the tickets area. Functions take the database or a transaction as their first argument.
import { compiledQuery } from '../../db/compiled.js';
import { ownedBy, type Owner, type TicketScope } from './access.js';
import {
  ATTACHMENT_COLUMNS,
  COMMENT_COLUMNS,
  TICKET_COLUMNS,
  type ActivityValues,
  type AttachmentRow,
  type CommentRow,
  type Db,
  type NewTicketRow,
  type TagRow,
  type TicketRow,
} from './rows.js';

export { childrenOf, type TicketChildren } from './detail-query.js';
export {
  countTickets,
  listTickets,
  type TicketFilters,
  type TicketPage,
} from './list-query.js';
export type {
  ActivityRow,
  ActivityValues,
  AttachmentRow,
  CommentRow,
  Db,
  NewTicketRow,
  PersonRow,
  TagRow,
  TicketRow,
} from './rows.js';
export { TICKET_COLUMNS } from './rows.js';
export type { SlaFilter } from './sla-sql.js';

/**
 * Inserts the ticket unless its tracking code is taken; undefined then, and the caller draws
 * another code. ON CONFLICT keeps a collision from failing the statement, so this works inside a
 * caller's transaction too (on PostgreSQL a failed statement would abort it).
 */
export async function insertTicketIfCodeFree(db: Db, values: NewTicketRow): Promise<TicketRow | undefined> {
  return db
    .insertInto('tickets')
    .values(values)
    .onConflict((oc) => oc.column('tracking_code').doNothing())
    .returning(TICKET_COLUMNS)
    .executeTakeFirst();
}

// The queries of the detail view (one ticket, its tags, attachments, comments and activities) and
// of the stats run on every such request; they are compiled once (db/compiled.ts).
const ticketById = compiledQuery('tickets.byId', (db, id: number) =>
  db.selectFrom('tickets').select(TICKET_COLUMNS).where('id', '=', id),
);
const ownedTicketById = compiledQuery('tickets.ownedById', (db, id: number, ownerId: number, ownerEmail: string) =>
  db.selectFrom('tickets').select(TICKET_COLUMNS).where('id', '=', id).where(ownedBy(ownerId, ownerEmail)),
);

/** The ticket when the scope holds it (a member's own; any ticket for staff). */
export async function findTicket(db: Db, id: number, scope: TicketScope): Promise<TicketRow | undefined> {
  const [row] = scope ? await ownedTicketById(db, id, scope.id, scope.email.toLowerCase()) : await ticketById(db, id);
  return row as TicketRow | undefined;
}

/** The ticket, its row locked until the transaction ends (PostgreSQL only: SQLite has one writer). */
export async function lockTicket(db: Db, id: number): Promise<TicketRow | undefined> {
  return db.selectFrom('tickets').select(TICKET_COLUMNS).where('id', '=', id).forUpdate().executeTakeFirst();
}

export async function updateTicket(db: Db, id: number, values: Partial<Omit<TicketRow, 'id'>>): Promise<void> {
  await db.updateTable('tickets').set(values).where('id', '=', id).execute();
}

/** Updates the ticket only while it is not closed (a close racing the change wins); false when it was closed. */
export async function updateOpenTicket(db: Db, id: number, values: Partial<Omit<TicketRow, 'id'>>): Promise<boolean> {
  const result = await db
    .updateTable('tickets')
    .set(values)
    .where('id', '=', id)
    .where('status', '!=', 'closed')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

const countsByStatus = compiledQuery('tickets.countsByStatus', (db, ownerId: number, ownerEmail: string) =>
  db
    .selectFrom('tickets')
    .where(ownedBy(ownerId, ownerEmail))
    .select(['status', (eb) => eb.fn.countAll<number>().as('count')])
    .groupBy('status'),
);

export async function countByStatus(db: Db, owner: Owner): Promise<Record<string, number>> {
  const rows = await countsByStatus(db, owner.id, owner.email.toLowerCase());
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.count)]));
}

export async function findTagsByIds(db: Db, ids: number[]): Promise<TagRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('tags').select(['id', 'name']).where('id', 'in', ids).execute();
}

export async function attachTags(db: Db, ticketId: number, tagIds: number[]): Promise<void> {
  const unique = [...new Set(tagIds)];
  if (unique.length === 0) return;
  await db
    .insertInto('ticket_tag')
    .values(unique.map((tag_id) => ({ ticket_id: ticketId, tag_id })))
    .execute();
}

/** The ticket's tags become exactly these. */
export async function replaceTags(db: Db, ticketId: number, tagIds: number[]): Promise<void> {
  await db.deleteFrom('ticket_tag').where('ticket_id', '=', ticketId).execute();
  await attachTags(db, ticketId, tagIds);
}

const tagsOfTicket = compiledQuery('tickets.tagsOf', (db, ticketId: number) =>
  db
    .selectFrom('ticket_tag')
    .innerJoin('tags', 'tags.id', 'ticket_tag.tag_id')
    .select(['tags.id', 'tags.name'])
    .where('ticket_tag.ticket_id', '=', ticketId)
    .orderBy('tags.id'),
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

export async function insertActivities(db: Db, activities: ActivityValues[]): Promise<void> {
  if (activities.length === 0) return;
  await db
    .insertInto('ticket_activities')
    .values(
      activities.map((a) => ({
        ...a,
        field: a.field ?? null,
        old_value: a.old_value ?? null,
        new_value: a.new_value ?? null,
      })),
    )
    .execute();
}

export async function insertComment(db: Db, values: Omit<CommentRow, 'id'>): Promise<CommentRow> {
  return db.insertInto('ticket_comments').values(values).returning(COMMENT_COLUMNS).executeTakeFirstOrThrow();
}

export async function insertAttachments(db: Db, rows: Array<Omit<AttachmentRow, 'id'>>): Promise<AttachmentRow[]> {
  if (rows.length === 0) return [];
  const inserted: AttachmentRow[] = [];
  // One by one keeps the ids in the client's order on both dialects.
  for (const row of rows)
    inserted.push(
      await db.insertInto('ticket_attachments').values(row).returning(ATTACHMENT_COLUMNS).executeTakeFirstOrThrow(),
    );
  return inserted;
}

export async function findAttachment(
  db: Db,
  ticketId: number,
  attachmentId: number,
): Promise<AttachmentRow | undefined> {
  return db
    .selectFrom('ticket_attachments')
    .select(ATTACHMENT_COLUMNS)
    .where('id', '=', attachmentId)
    .where('ticket_id', '=', ticketId)
    .executeTakeFirst();
}

/** Those of `keys` (at most a few hundred) that an attachment row records. */
export async function recordedStorageKeys(db: Db, keys: string[]): Promise<string[]> {
  if (keys.length === 0) return [];
  const rows = await db
    .selectFrom('ticket_attachments')
    .select('storage_key')
    .where('storage_key', 'in', keys)
    .execute();
  return rows.map((row) => row.storage_key);
}

/** The ticket's version: the id of its newest comment (member or staff), 0 without one. Notes do not count. */
export async function versionOf(db: Db, ticketId: number): Promise<number> {
  const row = await db
    .selectFrom('ticket_comments')
    .select((eb) => eb.fn.max<number | null>('id').as('latest'))
    .where('ticket_id', '=', ticketId)
    .executeTakeFirst();
  return Number(row?.latest ?? 0);
}
