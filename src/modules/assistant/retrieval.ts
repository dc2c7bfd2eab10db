// What the assistant answers from: the best passages for a message, whether they are close enough
// to count as an answer, and which of them an offline answer uses (its sources). The chat, the
// providers and the evaluation (npm run eval -- assistant) all go through these functions.
import type { Locale } from '../../http/i18n.js';
import type { Hit, KnowledgeBase, Passage } from './knowledge.js';

/** A passage must share at least this share of the question's terms to count as an answer. */
const MIN_COVERAGE = 0.25;
const MIN_SCORE = 3;
// A second passage joins the answer when it scores close to the best one.
const SECOND_PASSAGE_RATIO = 0.8;

export interface Retrieval {
  /** The best passages, best first. */
  hits: Hit[];
  /** True when no passage matches the message well: the answer says so and offers escalation. */
  weakMatch: boolean;
}

export function isWeakMatch(hits: Hit[]): boolean {
  const best = hits[0];
  return !best || best.coverage < MIN_COVERAGE || best.score < MIN_SCORE;
}

export function retrieve(knowledge: KnowledgeBase, message: string, language: Locale): Retrieval {
  const hits = knowledge.search(message, language, 3);
  return { hits, weakMatch: isWeakMatch(hits) };
}

/** The passages an offline answer is made of, best first: none on a weak match, else the best and a close second. */
export function answerPassages({ hits, weakMatch }: Retrieval): Passage[] {
  const [best, second] = hits;
  if (weakMatch || !best) return [];
  const close = second !== undefined && second.score >= best.score * SECOND_PASSAGE_RATIO && second.coverage >= best.coverage;
  return close ? [best.passage, second.passage] : [best.passage];
}
