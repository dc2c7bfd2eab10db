// The child rows of one ticket (tags, attachments, comments, activities) in one statement: each
// set is a JSON array built by the database, in id order. On PostgreSQL every statement is a round
// trip to another process, and the detail view made four of them (docs/performance.md, "Tickets").
// The rows come back in the shapes the separate reads gave: timestamps as ISO 8601 strings with a
// Z, integers as numbers.
import { sql, type Compilable, type Kysely, type RawBuilder } from 'kysely';
import { compiledQuery } from '../../db/compiled.js';
import type { Database } from '../../db/schema.js';
import { isPostgres } from '../../db/schema-helpers.js';
import {
  ACTIVITY_COLUMNS,
  ATTACHMENT_COLUMNS,
  COMMENT_COLUMNS,
  TAG_COLUMNS,
  type ActivityRow,
  type AttachmentRow,
  type CommentRow,
  type TagRow,
} from './rows.js';

/** The rows of `query` (whose columns are `columns`, ordered by id) as one JSON array value. */
function jsonRows(db: Kysely<Database>, query: Compilable<unknown>, columns: readonly string[]): RawBuilder<unknown> {
  if (isPostgres(db)) return sql`(select coalesce(json_agg(x order by x.id), '[]'::json) from ${query} as x)`;
  const fields = sql.raw(columns.map((c) => `'${c}', x.${c}`).join(', '));
  return sql`(select coalesce(json_group_array(json_object(${fields})), '[]') from ${query} as x)`;
}

const childrenOfTicket = compiledQuery('tickets.childrenOf', (db, ticketId: number) =>
  db.selectNoFrom([
    jsonRows(
      db,
      db
        .selectFrom('ticket_tag')
        .innerJoin('tags', 'tags.id', 'ticket_tag.tag_id')
        .select(['tags.id', 'tags.name'])
        .where('ticket_tag.ticket_id', '=', ticketId)
        .orderBy('tags.id'),
      TAG_COLUMNS,
    ).as('tags'),
    jsonRows(
      db,
      db.selectFrom('ticket_attachments').select(ATTACHMENT_COLUMNS).where('ticket_id', '=', ticketId).orderBy('id'),
      ATTACHMENT_COLUMNS,
    ).as('attachments'),
    jsonRows(
      db,
      db.selectFrom('ticket_comments').select(COMMENT_COLUMNS).where('ticket_id', '=', ticketId).orderBy('id'),
      COMMENT_COLUMNS,
    ).as('comments'),
    jsonRows(
      db,
      db.selectFrom('ticket_activities').select(ACTIVITY_COLUMNS).where('ticket_id', '=', ticketId).orderBy('id'),
      ACTIVITY_COLUMNS,
    ).as('activities'),
  ]),
);

export interface TicketChildren {
  tags: TagRow[];
  attachments: AttachmentRow[];
  comments: CommentRow[];
  activities: ActivityRow[];
}

/** A JSON array value as the driver hands it back (PostgreSQL parses json, SQLite gives text), timestamps made ISO with a Z. */
function rowsOf<T>(value: unknown): T[] {
  const rows = (typeof value === 'string' ? JSON.parse(value) : value) as Array<Record<string, unknown>>;
  for (const row of rows)
    if (typeof row.created_at === 'string') row.created_at = new Date(row.created_at).toISOString();
  return rows as T[];
}

/** The ticket's tags, attachments, comments and activities, each by id, in one statement. */
export async function childrenOf(db: Kysely<Database>, ticketId: number): Promise<TicketChildren> {
  const [row] = await childrenOfTicket(db, ticketId);
  return {
    tags: rowsOf<TagRow>(row!.tags),
    attachments: rowsOf<AttachmentRow>(row!.attachments),
    comments: rowsOf<CommentRow>(row!.comments),
    activities: rowsOf<ActivityRow>(row!.activities),
  };
}
