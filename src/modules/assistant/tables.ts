import type { Generated } from 'kysely';

export interface AssistantConversationsTable {
  id: Generated<number>;
  user_id: number;
  /** From the first message: at most 50 characters. */
  title: string;
  /** The agent that answered last (engineer, pilot, steward, guide). */
  agent_type: string;
  /** active, archived or deleted. */
  status: Generated<string>;
  /** Text of the newest message, kept here so the list reads one table. */
  last_message: string | null;
  /** The support ticket this conversation was escalated to, once it was. */
  escalated_ticket_id: number | null;
  created_at: string;
  updated_at: string;
}

export interface AssistantMessagesTable {
  id: Generated<number>;
  conversation_id: number;
  /** user or assistant. */
  role: string;
  content: string;
  /** The answering agent of an assistant message; null for the user's. */
  agent: string | null;
  request_id: string | null;
  response_time_ms: number | null;
  /** JSON array of {id, title}: the passages an assistant answer used, best first; null for users' messages and answers saved before sources were kept. */
  sources: string | null;
  /** 1: an answer cut short because the client left a streamed chat (migration 202611240300). */
  interrupted: Generated<number>;
  created_at: string;
}

export interface AssistantFeedbackTable {
  id: Generated<number>;
  user_id: number;
  type: string;
  subject: string;
  content: string;
  rating: number | null;
  created_at: string;
}

export interface AssistantTables {
  assistant_conversations: AssistantConversationsTable;
  assistant_messages: AssistantMessagesTable;
  assistant_feedback: AssistantFeedbackTable;
}
