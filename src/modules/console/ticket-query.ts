// SQL of the ticket as staff see it: its internal notes, the member's other tickets, the assistant
// conversation it was escalated from, and the notes' writes. The ticket's own rows and its version
// are the tickets module's (tickets/repository.ts, through its service functions).
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Db } from '../tickets/rows.js';

export interface NoteRow {
  id: number;
  ticket_id: number;
  user_id: number | null;
  message: string;
  created_at: string;
}

const NOTE_COLUMNS = ['id', 'ticket_id', 'user_id', 'message', 'created_at'] as const;

export function notesOf(db: Kysely<Database>, ticketId: number): Promise<NoteRow[]> {
  return db.selectFrom('ticket_notes').select(NOTE_COLUMNS).where('ticket_id', '=', ticketId).orderBy('id').execute();
}

export function insertNote(db: Db, values: Omit<NoteRow, 'id'>): Promise<NoteRow> {
  return db.insertInto('ticket_notes').values(values).returning(NOTE_COLUMNS).executeTakeFirstOrThrow();
}

export interface OtherTicketRow {
  id: number;
  tracking_code: string;
  subject: string;
  status: string;
  created_at: string;
}

/** The owner's other tickets (by account or address), newest first. */
export async function otherTickets(
  db: Kysely<Database>,
  owner: { userId: number | null; email: string | null },
  exceptId: number,
  limit: number,
): Promise<OtherTicketRow[]> {
  if (owner.userId === null && owner.email === null) return [];
  const columns = ['id', 'tracking_code', 'subject', 'status', 'created_at'] as const;
  const half = (column: 'user_id' | 'email', value: number | string) =>
    db
      .selectFrom('tickets')
      .select(columns)
      .where(column, '=', value)
      .where('id', '<>', exceptId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  const [byUser, byEmail] = await Promise.all([
    owner.userId === null ? [] : half('user_id', owner.userId),
    owner.email === null ? [] : half('email', owner.email),
  ]);
  const seen = new Map<number, OtherTicketRow>();
  for (const row of [...byUser, ...byEmail]) seen.set(row.id, row);
  return [...seen.values()].sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id - a.id).slice(0, limit);
}

export interface TranscriptRow {
  id: number;
  title: string;
  messages: { role: string; content: string; created_at: string }[];
}

/** The assistant conversation escalated to this ticket, with its messages in order. */
export async function conversationOf(db: Kysely<Database>, ticketId: number): Promise<TranscriptRow | null> {
  const conversation = await db
    .selectFrom('assistant_conversations')
    .select(['id', 'title'])
    .where('escalated_ticket_id', '=', ticketId)
    .orderBy('id')
    .executeTakeFirst();
  if (!conversation) return null;
  const messages = await db
    .selectFrom('assistant_messages')
    .select(['role', 'content', 'created_at'])
    .where('conversation_id', '=', conversation.id)
    .orderBy('id')
    .execute();
  return { ...conversation, messages };
}
