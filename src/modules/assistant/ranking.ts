// How a search's results are described and ranked: the score of each passage for a message, the
// share of the message the knowledge base knows, and the weights that mix them (chosen on the
// evaluation's tuning half with eval/assistant/tune.ts).
import type { Locale } from '../../core/i18n.js';
import type { Passage } from './knowledge-files.js';

export interface Hit {
  passage: Passage;
  score: number;
  /** Share of the query's search terms that the passage contains, 0 to 1. */
  coverage: number;
  /** Similarity of the query to the passage's closest phrasing (character trigrams and word pairs), 0 to 1. */
  similarity: number;
  /** Share of the query's words (by rarity, as SearchMatch.known) the passage itself holds, 0 to 1. */
  own: number;
}

/** What a search found: the best passages, and how the query relates to the knowledge base as a whole. */
export interface SearchMatch {
  hits: Hit[];
  /** Share of the query's words (by rarity) the knowledge base understands, 0 to 1. */
  known: number;
  /** Similarity of the query to the closest question outside the knowledge base's scope (assets/assistant/outside), 0 to 1. */
  outside: number;
  /** Similarity of the query to the closest phrasing of any passage, 0 to 1. */
  closest: number;
}

/** How search scores and ranks passages; the defaults were chosen on the evaluation's tuning half (eval/assistant/tune.ts). */
export interface Ranking {
  /** Weight of the word score (BM25, saturated to 0..1) against the phrasing similarity. */
  wordWeight: number;
  /** BM25 score at which the saturated word score is one half. */
  halfScore: number;
  /** Weight of the share of the query's words the passage contains; the similarity gets the rest. */
  coverageWeight: number;
}

// Per language, so the two can differ; since the abstention rule (retrieval.ts) is chosen on both
// languages' tuning halves together (eval/assistant/tune.ts), they are the same.
export const DEFAULT_RANKING: Record<Locale, Ranking> = {
  en: { wordWeight: 0.6, halfScore: 64, coverageWeight: 0 },
  fa: { wordWeight: 0.6, halfScore: 64, coverageWeight: 0 },
};
