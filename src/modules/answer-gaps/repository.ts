// SQL of answer feedback and of the questions the assistant could not answer: an answer with no
// sources (the assistant said it had nothing) or one its asker rated down, with the member's
// question just before it in the conversation.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

type Db = Kysely<Database>;

export interface FeedbackRow {
  message_id: number;
  rating: string;
  reason: string | null;
  created_at: string;
  updated_at: string;
}

/** An assistant message with the owner of its conversation; undefined when there is none with this id. */
export async function answerWithOwner(
  db: Db,
  messageId: number,
): Promise<{ id: number; role: string; user_id: number } | undefined> {
  return db
    .selectFrom('assistant_messages as m')
    .innerJoin('assistant_conversations as c', 'c.id', 'm.conversation_id')
    .select(['m.id', 'm.role', 'c.user_id'])
    .where('m.id', '=', messageId)
    .executeTakeFirst();
}

/** One rating per message: the first call inserts it, a later one replaces rating and reason. */
export async function saveFeedback(
  db: Db,
  values: { message_id: number; user_id: number; rating: string; reason: string | null; now: string },
): Promise<FeedbackRow> {
  const { now, ...rest } = values;
  return db
    .insertInto('assistant_answer_feedback')
    .values({ ...rest, created_at: now, updated_at: now })
    .onConflict((oc) =>
      oc.column('message_id').doUpdateSet({ rating: values.rating, reason: values.reason, updated_at: now }),
    )
    .returning(['message_id', 'rating', 'reason', 'created_at', 'updated_at'])
    .executeTakeFirstOrThrow();
}

export interface UnansweredRow {
  answer_id: number;
  user_id: number;
  question: string | null;
  sources: string | null;
  rating: string | null;
  reason: string | null;
  asked_at: string;
}

/** Answers since `since` that had no source or were rated down, newest first, each with the question before it. */
export async function unanswered(db: Db, since: string, limit: number): Promise<UnansweredRow[]> {
  return db
    .selectFrom('assistant_messages as a')
    .innerJoin('assistant_conversations as c', 'c.id', 'a.conversation_id')
    .leftJoin('assistant_answer_feedback as f', 'f.message_id', 'a.id')
    .select((eb) => [
      'a.id as answer_id',
      'c.user_id',
      'a.sources',
      'f.rating',
      'f.reason',
      'a.created_at as asked_at',
      eb
        .selectFrom('assistant_messages as q')
        .select('q.content')
        .whereRef('q.conversation_id', '=', 'a.conversation_id')
        .whereRef('q.id', '<', 'a.id')
        .where('q.role', '=', 'user')
        .orderBy('q.id', 'desc')
        .limit(1)
        .as('question'),
    ])
    .where('a.role', '=', 'assistant')
    .where('a.interrupted', '=', 0)
    .where('a.created_at', '>=', since)
    .where((eb) => eb.or([eb('a.sources', '=', '[]'), eb('f.rating', '=', 'down')]))
    .orderBy('a.id', 'desc')
    .limit(limit)
    .execute();
}

export async function decisions(
  db: Db,
): Promise<Array<{ group_key: string; state: string; article_key: string | null; decided_at: string }>> {
  return db.selectFrom('assistant_gap_decisions').select(['group_key', 'state', 'article_key', 'decided_at']).execute();
}

export async function saveDecision(
  db: Db,
  values: { group_key: string; state: string; article_key: string | null; decided_by: number; decided_at: string },
): Promise<void> {
  await db
    .insertInto('assistant_gap_decisions')
    .values(values)
    .onConflict((oc) =>
      oc.column('group_key').doUpdateSet({
        state: values.state,
        article_key: values.article_key,
        decided_by: values.decided_by,
        decided_at: values.decided_at,
      }),
    )
    .execute();
}
