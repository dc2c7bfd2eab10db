import type { Generated } from 'kysely';

/** A member's thumbs up or down on one assistant answer; one row per message (a second rating replaces it). */
export interface AssistantAnswerFeedbackTable {
  id: Generated<number>;
  message_id: number;
  user_id: number;
  /** up or down. */
  rating: string;
  reason: string | null;
  created_at: string;
  updated_at: string;
}

/** What staff decided about a group of unanswered questions, by the group's id. */
export interface AssistantGapDecisionsTable {
  id: Generated<number>;
  group_key: string;
  /** dismissed or answered. */
  state: string;
  /** The article (knowledge-base key) that answers the group, when answered. */
  article_key: string | null;
  decided_by: number | null;
  decided_at: string;
}

export interface AnswerGapTables {
  assistant_answer_feedback: AssistantAnswerFeedbackTable;
  assistant_gap_decisions: AssistantGapDecisionsTable;
}
