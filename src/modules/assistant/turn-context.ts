// What around a member's message may weigh on it: the conversation's earlier exchanges (an
// unanswered one by what it was about) and the page, unless the message clearly asks about
// something else. The context helps a message that is vague on its own; it never overrides a
// clear question on another subject ("how do i get a receipt for my payment" asked after an answer
// about returns, or on the page of a project). understanding.ts reads a message through these.
import { isFinglish } from './finglish-words.js';
import type { KnowledgeBase, SearchMatch } from './knowledge.js';
import { refersToContext, wordCount } from './message-parts.js';
import { type PageRef, pageAffinities } from './page-context.js';
import type { Reading } from './reading.js';
import { closeSecond, confidence, type Thresholds } from './retrieval.js';
import { messageLanguage } from './text.js';
import { pointedAt } from './vague-turns.js';

/** One earlier exchange of the conversation: the member's message and the ids of its answer's sources. */
export interface Exchange {
  message: string;
  sources: string[];
  /** How much the exchange counts (1 when absent); an unanswered one counts Reading.unansweredShare (withSubjects). */
  share?: number;
}

/** One message of a member, with what the chat knows around it. */
export interface Turn {
  message: string;
  /** The conversation's earlier exchanges, the most recent first. */
  earlier?: Exchange[];
  /** The page the member is on (the chat's context.page). */
  page?: PageRef;
}

/** Exchanges further back than this are not read. */
export const EARLIER_EXCHANGES = 2;

/** A message names its own subject when none of its first this many passages is one its context points at. */
const NAMED = 3;

/**
 * The turn with its last EARLIER_EXCHANGES exchanges, each unanswered one with its message's best
 * passage as its source: a message the chat could not answer still says what the member is
 * talking about ("i want a refund for the solar project", then "when does it land in my card"). It
 * counts unansweredShare of an answered exchange, since no answer confirmed it.
 */
export function withSubjects(knowledge: KnowledgeBase, turn: Turn, reading: Reading): Turn {
  if (!turn.earlier?.length) return turn;
  const earlier = turn.earlier.slice(0, EARLIER_EXCHANGES).map((exchange) => {
    if (exchange.sources.length > 0 || reading.unansweredShare === 0) return exchange;
    const finglish = isFinglish(exchange.message);
    const text = finglish ? knowledge.readLatin(exchange.message) : exchange.message;
    const best = knowledge.match(text, finglish ? 'fa' : messageLanguage(exchange.message), 1).hits[0];
    return best ? { ...exchange, sources: [best.passage.id], share: reading.unansweredShare } : exchange;
  });
  return { ...turn, earlier };
}

/**
 * The turn without the page, or without the conversation, when the message clearly asks about
 * something else: it is confident alone (apartConfidence) and points nowhere outside itself
 * (refersToContext), and none of its first NAMED passages is on the page, or one the conversation
 * points at (pointedAt: the topic just answered and its next steps). A message of at most
 * shortWords words must also have settled on one passage (no close second): then it names its own
 * subject as a longer one does ("how do i close my account" after an answer about refunds), while
 * "پولم کی برمیگرده؟" (when is my money back), close to several passages, still reads the
 * conversation. A message that is vague, or whose own search already leans to its context, keeps it all.
 */
export function aroundWhatItSays(
  knowledge: KnowledgeBase,
  match: SearchMatch,
  turn: Turn,
  rule: Thresholds,
  reading: Reading,
): Turn {
  // A few words whose answer would have a close second (answerPassages) have not settled their subject.
  const settled = !closeSecond(match.hits, rule.secondRatio);
  const clear =
    confidence(match, rule) >= reading.apartConfidence &&
    !refersToContext(turn.message) &&
    (wordCount(turn.message) > reading.shortWords || settled);
  if (!clear) return turn;
  const named = match.hits.slice(0, NAMED).map((hit) => hit.passage);
  const page = turn.page;
  const onPage = !page || pageAffinities(named, page, reading.moduleShare).size > 0;
  const pointed = new Set(
    (turn.earlier ?? []).flatMap((exchange) =>
      exchange.sources.flatMap((id) => pointedAt(knowledge, named[0]!.lang, id).map((p) => p.id)),
    ),
  );
  const followed = named.some((passage) => pointed.has(passage.id));
  return { ...turn, page: onPage ? page : undefined, earlier: followed ? turn.earlier : undefined };
}
