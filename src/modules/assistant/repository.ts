// SQL of the assistant: conversations, their messages, and feedback.
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Dialect } from '../../db/index.js';
import { lockedOnPostgres } from '../../db/row-writes.js';
import type { Database } from '../../db/schema.js';
import type { AssistantFeedbackTable } from './tables.js';

type Db = Kysely<Database> | Transaction<Database>;

export type ConversationStatus = 'active' | 'archived' | 'deleted';

export interface ConversationRow {
  id: number;
  user_id: number;
  title: string;
  agent_type: string;
  status: string;
  last_message: string | null;
  escalated_ticket_id: number | null;
  created_at: string;
  updated_at: string;
}

const CONVERSATION_COLUMNS = [
  'id',
  'user_id',
  'title',
  'agent_type',
  'status',
  'last_message',
  'escalated_ticket_id',
  'created_at',
  'updated_at',
] as const;

export async function findConversation(db: Db, id: number): Promise<ConversationRow | undefined> {
  return db.selectFrom('assistant_conversations').select(CONVERSATION_COLUMNS).where('id', '=', id).executeTakeFirst();
}

export async function insertConversation(
  db: Db,
  values: { user_id: number; title: string; agent_type: string; last_message: string; now: string },
): Promise<ConversationRow> {
  return db
    .insertInto('assistant_conversations')
    .values({
      user_id: values.user_id,
      title: values.title,
      agent_type: values.agent_type,
      status: 'active',
      last_message: values.last_message,
      escalated_ticket_id: null,
      created_at: values.now,
      updated_at: values.now,
    })
    .returning(CONVERSATION_COLUMNS)
    .executeTakeFirstOrThrow();
}

export async function touchConversation(
  db: Db,
  id: number,
  values: { last_message: string; updated_at: string; status?: ConversationStatus; agent_type?: string },
): Promise<void> {
  await db.updateTable('assistant_conversations').set(values).where('id', '=', id).execute();
}

/** Archiving or deleting is not activity: updated_at keeps the time of the last message. */
export async function setConversationStatus(db: Db, id: number, status: ConversationStatus): Promise<void> {
  await db.updateTable('assistant_conversations').set({ status }).where('id', '=', id).execute();
}

/** The conversation with its row locked until the transaction ends (PostgreSQL; SQLite has one writer anyway). */
export async function lockConversation(trx: Db, id: number, dialect: Dialect): Promise<ConversationRow | undefined> {
  return lockedOnPostgres(
    trx.selectFrom('assistant_conversations').select(CONVERSATION_COLUMNS).where('id', '=', id),
    dialect,
  ).executeTakeFirst();
}

/** Records the conversation's ticket unless one is recorded already; true when this one was stored. */
export async function setEscalatedTicket(db: Db, id: number, ticketId: number): Promise<boolean> {
  const result = await db
    .updateTable('assistant_conversations')
    .set({ escalated_ticket_id: ticketId })
    .where('id', '=', id)
    .where('escalated_ticket_id', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export interface ConversationFilter {
  userId: number;
  status: ConversationStatus;
  agent?: string;
  limit: number;
  offset: number;
}

export async function listConversations(
  db: Db,
  filter: ConversationFilter,
): Promise<{ rows: ConversationRow[]; total: number }> {
  let query = db
    .selectFrom('assistant_conversations')
    .where('user_id', '=', filter.userId)
    .where('status', '=', filter.status);
  if (filter.agent) query = query.where('agent_type', '=', filter.agent);
  const [rows, count] = await Promise.all([
    query
      .select(CONVERSATION_COLUMNS)
      .orderBy('updated_at', 'desc')
      .orderBy('id', 'desc')
      .limit(filter.limit)
      .offset(filter.offset)
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

export async function countConversations(db: Db): Promise<number> {
  const row = await db
    .selectFrom('assistant_conversations')
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

export interface MessageRow {
  id: number;
  role: string;
  content: string;
  agent: string | null;
  created_at: string;
}

/** A knowledge-base passage an answer used, as the conversation shows it. */
export interface MessageSource {
  id: string;
  title: string;
}

export type MessageWithSources = MessageRow & { sources: MessageSource[]; interrupted: boolean };

export async function insertMessage(
  db: Db,
  values: {
    conversation_id: number;
    role: 'user' | 'assistant';
    content: string;
    agent: string | null;
    request_id: string;
    response_time_ms: number | null;
    sources?: MessageSource[];
    interrupted?: boolean;
    now: string;
  },
): Promise<void> {
  await db
    .insertInto('assistant_messages')
    .values({
      conversation_id: values.conversation_id,
      role: values.role,
      content: values.content,
      agent: values.agent,
      request_id: values.request_id,
      response_time_ms: values.response_time_ms,
      sources: values.sources === undefined ? null : JSON.stringify(values.sources),
      ...(values.interrupted ? { interrupted: 1 } : {}),
      created_at: values.now,
    })
    .execute();
}

/** All messages of a conversation, oldest first, with their sources (none recorded: []). */
export async function listMessages(db: Db, conversationId: number): Promise<MessageWithSources[]> {
  const rows = await db
    .selectFrom('assistant_messages')
    .select(['id', 'role', 'content', 'agent', 'sources', 'interrupted', 'created_at'])
    .where('conversation_id', '=', conversationId)
    .orderBy('id', 'asc')
    .execute();
  return rows.map((row) => ({
    ...row,
    interrupted: row.interrupted === 1,
    sources: row.sources === null ? [] : (JSON.parse(row.sources) as MessageSource[]),
  }));
}

/** The newest messages of a conversation, returned oldest first, with the ids of their sources. */
export async function recentMessages(
  db: Db,
  conversationId: number,
  limit: number,
): Promise<Array<MessageRow & { sourceIds: string[] }>> {
  const rows = await db
    .selectFrom('assistant_messages')
    .select(['id', 'role', 'content', 'agent', 'sources', 'created_at'])
    .where('conversation_id', '=', conversationId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.reverse().map(({ sources, ...row }) => ({
    ...row,
    sourceIds: sources === null ? [] : (JSON.parse(sources) as MessageSource[]).map((s) => s.id),
  }));
}

export type FeedbackRow = Selectable<AssistantFeedbackTable>;

export async function insertFeedback(
  db: Db,
  values: { user_id: number; type: string; subject: string; content: string; rating: number | null; now: string },
): Promise<number> {
  const row = await db
    .insertInto('assistant_feedback')
    .values({
      user_id: values.user_id,
      type: values.type,
      subject: values.subject,
      content: values.content,
      rating: values.rating,
      created_at: values.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function listFeedback(
  db: Db,
  filter: { type?: string; limit: number; offset: number },
): Promise<{ rows: FeedbackRow[]; total: number }> {
  // Every row has its user (user_id is a foreign key that cascades), so the authors are looked up
  // afterwards through the users service instead of joining their table here.
  let query = db.selectFrom('assistant_feedback');
  if (filter.type) query = query.where('type', '=', filter.type);
  const [rows, count] = await Promise.all([
    query
      .select(['id', 'user_id', 'type', 'subject', 'content', 'rating', 'created_at'])
      .orderBy('id', 'desc')
      .limit(filter.limit)
      .offset(filter.offset)
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}
