// How a search's results are described and ranked: the score of each passage for a message, the
// share of the message the knowledge base knows, and the weights that mix them (chosen on the
// evaluation's tuning half with eval/assistant/tune.ts).
import type { Locale } from '../../core/i18n.js';
import { emptyBest, keepBest } from './keep-best.js';
import type { Passage } from './knowledge-files.js';
import { type LanguageIndex, OUTSIDE_OWNER } from './knowledge-index.js';
import type { WordResults } from './word-index.js';

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

/** What match() ranks besides its best: passages named, and a score added to each passage (by id). */
export interface MatchOptions {
  /** Passages ranked whatever their score (they join the best `limit`). */
  also?: ReadonlySet<string>;
  /** Added to each passage's score: weight × scores[its slot in the index searched] (0 past its end). */
  bonus?: { scores: Float64Array; weight: number };
}

/** A query as the knowledge base reads it (KnowledgeBase.expand). */
export interface Expanded {
  words: string[];
  terms: string[];
  translated: Map<string, string[]>;
}

/** One search in one language: every slot's score (scoreOf), and what hits are described with. */
export interface Ranked {
  index: LanguageIndex;
  expanded: Expanded;
  /** The terms searched, a phrase's several words apart, in order, repeats kept. */
  searched: string[];
  found: WordResults;
  similarity: Float64Array;
  /** Per word of the query: its rarity among the passages. */
  weights: number[];
  totalWeight: number;
  /** By slot of the index: the slot's score (scoreOf's number, computed for every slot at once); the index's own array, until its next search. */
  scores: Float64Array;
  scoreOf: (slot: number) => number;
}

/**
 * Each passage's score mixes its word score (BM25 over headings, alternate questions and answers,
 * with prefix and fuzzy matches, saturated) and the character-trigram similarity of the query to
 * its closest phrasing.
 */
export function rankPassages(
  index: LanguageIndex,
  expanded: Expanded,
  ranking: Ranking,
  bonus?: MatchOptions['bonus'],
): Ranked {
  const { words, terms } = expanded;
  // A term of several words (a thesaurus phrase's addition) is searched word by word, each time it comes.
  const searched = terms.join(' ').split(' ').filter(Boolean);
  const found = index.words.search(searched, { prefixFrom: 4, fuzzyFrom: 5 });
  // The query's trigram vector, weighed once for the phrasings and the document pages' sentences.
  const vector = index.phrasings.vector(words);
  const similarity = index.phrasings.similarities(vector, index.owners);
  index.sentences.raise(similarity, vector, found, index.bySlot, index.documentSlot);
  const { wordWeight, halfScore, coverageWeight } = ranking;
  const passages = index.passages.size;
  const weights = words.map((word) => Math.log(1 + passages / (index.frequency.get(word) ?? 1)));
  const totalWeight = weights.reduce((a, b) => a + b, 0) || 1;
  const simWeight = 1 - wordWeight - coverageWeight;
  // Every slot's score at once, in typed loops: word part (BM25 saturated, coverage), then the
  // similarity's, then the bonus, the same operations for every slot. A slot no term matched has the
  // same word part (0 for a BM25 of 0); only the slots the word search found (found.slots) have one
  // of their own. The scores stay when the word index's arrays are reused by its next search.
  const size = index.bySlot.length;
  // Every slot is written below: the index's room needs no clearing.
  const scores = index.scoresScratch(size);
  const none = wordWeight * (0 / (0 + halfScore)) + coverageWeight * Math.min(1, 0 / Math.max(1, words.length));
  // Bounds hoisted out of the loops: a typed array read past its end slows the whole loop.
  const shared = Math.min(size, similarity.length);
  for (let slot = 0; slot < shared; slot += 1) scores[slot] = none + simWeight * similarity[slot]!;
  for (let slot = shared; slot < size; slot += 1) scores[slot] = none + simWeight * 0;
  for (const slot of found.slots) {
    if (slot >= size) continue;
    const bm25 = found.scores[slot]!;
    const coverage = Math.min(1, found.counts[slot]! / Math.max(1, words.length));
    const word = wordWeight * (bm25 / (bm25 + halfScore)) + coverageWeight * coverage;
    scores[slot] = word + simWeight * (similarity[slot] ?? 0);
  }
  if (bonus) {
    const { scores: extra, weight } = bonus;
    const reach = Math.min(size, extra.length);
    for (let slot = 0; slot < reach; slot += 1) scores[slot] = scores[slot]! + weight * extra[slot]!;
    for (let slot = reach; slot < size; slot += 1) scores[slot] = scores[slot]! + weight * 0;
  }
  // Every slot a passage can hold is below bySlot's length.
  const scoreOf = (slot: number): number => scores[slot] ?? 0;
  return { index, expanded, searched, found, similarity, weights, totalWeight, scores, scoreOf };
}

/** The hits of the chosen slots, and how the query relates to the knowledge base as a whole. */
export function describe(ranked: Ranked, best: Array<{ slot: number; score: number }>): SearchMatch {
  const { index, expanded, searched, found, similarity, weights, totalWeight } = ranked;
  const { words, translated } = expanded;
  const hits = best.map(({ slot, score }) => {
    const count = found.counts[slot] ?? 0;
    // The share of the message (by rarity) this passage itself holds, a word or what a phrase made
    // of it adds; none when the word search did not find the passage.
    const holds = new Set(found.termsOf(slot).map((t) => searched[t]!));
    const own =
      count === 0
        ? 0
        : words.reduce(
            (sum, word, w) =>
              holds.has(word) || translated.get(word)?.some((add) => holds.has(add)) ? sum + weights[w]! : sum,
            0,
          ) / totalWeight;
    return {
      passage: index.bySlot[slot]!,
      score,
      coverage: Math.min(1, count / Math.max(1, words.length)),
      similarity: similarity[slot] ?? 0,
      own,
    };
  });
  const knownWeight = words.reduce(
    (sum, word, w) => (found.matched.has(word) || translated.has(word) ? sum + weights[w]! : sum),
    0,
  );
  let closest = 0;
  for (let slot = OUTSIDE_OWNER + 1; slot < similarity.length; slot += 1)
    if (similarity[slot]! > closest && index.bySlot[slot]) closest = similarity[slot]!;
  return {
    hits,
    known: words.length === 0 ? 0 : knownWeight / totalWeight,
    outside: similarity[OUTSIDE_OWNER]!,
    closest,
  };
}

/** Up to this many, the best slots are kept in a short sorted list as the scores come. */
const SMALL_LIMIT = 64;

/** The `limit` live slots of the highest score (`scores` by slot), best first (ties: the lower slot first). */
export function topSlots(
  bySlot: ReadonlyArray<Passage | undefined>,
  scores: Float64Array,
  limit: number,
): Array<{ slot: number; score: number }> {
  const best: Array<{ slot: number; score: number }> = [];
  if (limit <= 0) return best;
  const end = Math.min(bySlot.length, scores.length);
  if (limit > SMALL_LIMIT) {
    // A long list (the help centre ranks every passage): score all, one sort.
    for (let slot = OUTSIDE_OWNER + 1; slot < end; slot += 1)
      if (bySlot[slot]) best.push({ slot, score: scores[slot]! });
    return best.sort((a, b) => b.score - a.score || a.slot - b.slot).slice(0, limit);
  }
  const kept = emptyBest(limit);
  // keepBest's own test, made before the call: once the list is full, a slot scoring no more than
  // the last one kept (`floor`) stops here.
  let floor = Number.NEGATIVE_INFINITY;
  for (let slot = OUTSIDE_OWNER + 1; slot < end; slot += 1) {
    const score = scores[slot]!;
    if (score <= floor || !bySlot[slot]) continue;
    keepBest(kept, slot, score);
    if (kept.items.length === limit) floor = kept.scores[limit - 1]!;
  }
  return kept.items.map((slot, i) => ({ slot, score: kept.scores[i]! }));
}
