// What the chat reads of a conversation before answering its newest message: the earlier
// exchanges (each message of the member with the sources of the answer it got), which help to
// understand a follow-up ("how long will it take?"), and for a language model the history itself.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import * as repo from './repository.js';
import type { Exchange } from './understanding.js';

/** Messages of history a language model sees at most (then trimmed to the token budget). */
export const HISTORY_MESSAGES = 20;
/** Messages read for the offline answer: the last two exchanges and the new message. */
const EXCHANGE_MESSAGES = 5;

export interface ConversationContext {
  /** Earlier messages, oldest first, without the new one (only when asked for). */
  history: Array<{ role: 'user' | 'assistant'; content: string }>;
  /** Earlier exchanges, the most recent first. */
  earlier: Exchange[];
}

/** The conversation before its newest message (already saved); with the history for a model when withHistory. */
export async function conversationContext(
  db: Kysely<Database>,
  conversationId: number,
  withHistory: boolean,
): Promise<ConversationContext> {
  const rows = await repo.recentMessages(db, conversationId, withHistory ? HISTORY_MESSAGES + 1 : EXCHANGE_MESSAGES);
  const before = rows.slice(0, -1);
  const earlier: Exchange[] = [];
  for (let i = before.length - 1; i >= 0; i -= 1) {
    if (before[i]!.role !== 'user') continue;
    const answer = before[i + 1]?.role === 'assistant' ? before[i + 1] : undefined;
    earlier.push({ message: before[i]!.content, sources: answer?.sourceIds ?? [] });
  }
  const history = withHistory
    ? before.map((r) => ({
        role: r.role === 'assistant' ? ('assistant' as const) : ('user' as const),
        content: r.content,
      }))
    : [];
  return { history, earlier };
}
