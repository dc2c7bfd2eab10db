// SQL of the staff stream: the newest ids (where a stream starts) and what is new after them.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

export interface Cursors {
  ticket: number;
  comment: number;
  note: number;
}

type Db = Kysely<Database>;

export async function latestIds(db: Db): Promise<Cursors> {
  const max = async (table: 'tickets' | 'ticket_comments' | 'ticket_notes') => {
    const row = await db
      .selectFrom(table)
      .select((eb) => eb.fn.max<number | null>('id').as('id'))
      .executeTakeFirst();
    return Number(row?.id ?? 0);
  };
  return { ticket: await max('tickets'), comment: await max('ticket_comments'), note: await max('ticket_notes') };
}

export function ticketsAfter(db: Db, id: number, limit: number) {
  return db
    .selectFrom('tickets')
    .select(['id', 'tracking_code', 'subject', 'priority', 'status', 'created_at'])
    .where('id', '>', id)
    .orderBy('id')
    .limit(limit)
    .execute();
}

export function commentsAfter(db: Db, id: number, limit: number) {
  return db
    .selectFrom('ticket_comments')
    .select(['id', 'ticket_id', 'is_staff'])
    .where('id', '>', id)
    .orderBy('id')
    .limit(limit)
    .execute();
}

export function notesAfter(db: Db, id: number, limit: number) {
  return db
    .selectFrom('ticket_notes')
    .select(['id', 'ticket_id'])
    .where('id', '>', id)
    .orderBy('id')
    .limit(limit)
    .execute();
}
