// What the assistant answers from: the best passages for a message, whether they are close enough
// to count as an answer, and which of them an offline answer uses (its sources). The chat, the
// providers and the evaluation (npm run eval -- assistant) all go through these functions.
import type { Locale } from '../../core/i18n.js';
import type { Hit, KnowledgeBase, Passage, SearchMatch } from './knowledge.js';

export { namesOutsideSubject } from './outside-subjects.js';

/**
 * When the best passage counts as an answer, and when a second one joins it. The decision is a
 * linear rule over four signals of the search: the best passage's score (0 to 1, see
 * KnowledgeBase.search), its lead over the second passage, the share of the message's words the
 * knowledge base knows at all (KnowledgeBase.match, each word weighted by its rarity), and how much
 * closer the message is to a question outside the scope than to the best passage's phrasings. A
 * question about something else scores low, leads nothing and has most of its words unknown, or
 * sits next to an outside question; a real question typed badly still has most of its words known.
 */
export interface Thresholds {
  /** Weight of the best passage's lead over the second one. */
  marginWeight: number;
  /** Weight of the share of the message's words the knowledge base knows. */
  knownWeight: number;
  /** Weight of how much closer the message is to a question outside the scope than to the best passage's phrasings (subtracted). */
  outsideWeight: number;
  /** Weight of the share of the message (by rarity) that the best passage itself does not hold (subtracted). */
  missingWeight: number;
  /**
   * (score + marginWeight × lead + knownWeight × known share − outsideWeight × outside lead
   * − missingWeight × missing share) / (1 + marginWeight + knownWeight), must reach this to answer.
   */
  minConfidence: number;
  /** A second passage joins the answer when its score is at least this share of the best one's. */
  secondRatio: number;
  /**
   * Added to the confidence when the best passage is a page of an uploaded document: a page has no
   * alternate questions to read like a member's, so its answer scores lower than an article's.
   */
  pageLift?: number;
}

// Chosen on both languages' tuning halves together with eval/assistant/tune.ts (its "chosen" line;
// docs/performance.md, "Assistant quality"): the Persian half alone no longer tells settings apart.
// A fourth signal, the share of the message's rare words the best passage itself holds, was in
// the grid of the third session and got weight 0 on the tuning half; it was then removed. The page
// lift was chosen on the older questions laid out as document pages (`npm run eval -- documents`,
// "chosen on" rows): the largest of 0.02, 0.04 and 0.06 that refuses every out-of-scope question
// there (docs/decisions.md, "A document page's answer is held to a bar lowered by 0.02").
const CHOSEN: Thresholds = {
  marginWeight: 0,
  knownWeight: 0.4,
  outsideWeight: 16,
  missingWeight: 0,
  minConfidence: 0.58,
  secondRatio: 0.9,
  pageLift: 0.02,
};
export const DEFAULT_THRESHOLDS: Record<Locale, Thresholds> = { en: { ...CHOSEN }, fa: { ...CHOSEN } };

/** What a search found for a message (see KnowledgeBase.match). */
export type Match = SearchMatch;

export interface Retrieval {
  /** The best passages, best first. */
  hits: Hit[];
  /** True when no passage matches the message well: the answer says so and offers escalation. */
  weakMatch: boolean;
  secondRatio?: number;
}

/** How sure the search is that its best passage answers the message (see Thresholds). */
export function confidence({ hits, known, outside, closest }: Match, thresholds: Thresholds): number {
  const [best, second] = hits;
  if (!best) return 0;
  const { marginWeight, knownWeight, outsideWeight, missingWeight } = thresholds;
  const lead = best.score - (second?.score ?? 0);
  // Closer to a question outside the scope than to any way a passage is asked (the best passage's
  // phrasing, or another's when the page or the conversation chose a passage the words alone did not).
  const outsideLead = Math.max(0, outside - closest);
  const lift = best.passage.document ? (thresholds.pageLift ?? 0) : 0;
  return (
    lift +
    (best.score +
      marginWeight * lead +
      knownWeight * known -
      outsideWeight * outsideLead -
      missingWeight * (1 - best.own)) /
      (1 + marginWeight + knownWeight)
  );
}

export function isWeakMatch(match: Match, thresholds: Thresholds): boolean {
  return match.hits.length === 0 || confidence(match, thresholds) < thresholds.minConfidence;
}

export function retrieve(
  knowledge: KnowledgeBase,
  message: string,
  language: Locale,
  thresholds: Thresholds = DEFAULT_THRESHOLDS[language],
): Retrieval {
  const match = knowledge.match(message, language, 3);
  return { hits: match.hits, weakMatch: isWeakMatch(match, thresholds), secondRatio: thresholds.secondRatio };
}

/** True when the second hit scores at least secondRatio of the first: the two are close, and an answer gives both. */
export function closeSecond(hits: readonly Hit[], secondRatio: number): boolean {
  const [best, second] = hits;
  return best !== undefined && second !== undefined && second.score >= best.score * secondRatio;
}

/** The passages an offline answer is made of, best first: none on a weak match, else the best and a close second. */
export function answerPassages({
  hits,
  weakMatch,
  secondRatio = DEFAULT_THRESHOLDS.en.secondRatio,
}: Retrieval): Passage[] {
  const [best, second] = hits;
  if (weakMatch || !best) return [];
  return closeSecond(hits, secondRatio) ? [best.passage, second!.passage] : [best.passage];
}

/** The chosen search's passages ordered by their score plus a share of their score in the other search. */
export function ordered(chosen: Match, other: Match, weight: number): Match {
  const elsewhere = new Map(other.hits.map((hit) => [hit.passage.id, hit.score]));
  const rank = (hit: Hit) => hit.score + weight * (elsewhere.get(hit.passage.id) ?? 0);
  return { ...chosen, hits: [...chosen.hits].sort((a, b) => rank(b) - rank(a)) };
}
