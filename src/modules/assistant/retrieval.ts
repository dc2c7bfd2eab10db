// What the assistant answers from: the best passages for a message, whether they are close enough
// to count as an answer, and which of them an offline answer uses (its sources). The chat, the
// providers and the evaluation (npm run eval -- assistant) all go through these functions.
import type { Locale } from '../../http/i18n.js';
import type { Hit, KnowledgeBase, Passage } from './knowledge.js';

/** When the best passage counts as an answer, and when a second one joins it. */
export interface Thresholds {
  /** The best passage's score (0 to 1, see KnowledgeBase.search) must reach this... */
  minScore: number;
  /** ...or lead the second passage's by this much while reaching marginFloor. */
  minMargin: number;
  marginFloor: number;
  /** A second passage joins the answer when its score is at least this share of the best one's. */
  secondRatio: number;
}

// Chosen on the evaluation's tuning half with eval/assistant/tune.ts (docs/performance.md).
export const DEFAULT_THRESHOLDS: Record<Locale, Thresholds> = {
  en: { minScore: 0.46, minMargin: 0.04, marginFloor: 0.4, secondRatio: 0.9 },
  fa: { minScore: 0.38, minMargin: 0.28, marginFloor: 0.24, secondRatio: 0.9 },
};

export interface Retrieval {
  /** The best passages, best first. */
  hits: Hit[];
  /** True when no passage matches the message well: the answer says so and offers escalation. */
  weakMatch: boolean;
  secondRatio?: number;
}

export function isWeakMatch(hits: Hit[], thresholds: Thresholds): boolean {
  const [best, second] = hits;
  if (!best) return true;
  if (best.score >= thresholds.minScore) return false;
  return best.score < thresholds.marginFloor || best.score - (second?.score ?? 0) < thresholds.minMargin;
}

export function retrieve(knowledge: KnowledgeBase, message: string, language: Locale, thresholds: Thresholds = DEFAULT_THRESHOLDS[language]): Retrieval {
  const hits = knowledge.search(message, language, 3);
  return { hits, weakMatch: isWeakMatch(hits, thresholds), secondRatio: thresholds.secondRatio };
}

/** The passages an offline answer is made of, best first: none on a weak match, else the best and a close second. */
export function answerPassages({ hits, weakMatch, secondRatio = DEFAULT_THRESHOLDS.en.secondRatio }: Retrieval): Passage[] {
  const [best, second] = hits;
  if (weakMatch || !best) return [];
  const close = second !== undefined && second.score >= best.score * secondRatio;
  return close ? [best.passage, second.passage] : [best.passage];
}
