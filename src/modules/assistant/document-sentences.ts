// The sentences of uploaded documents' pages as ways of asking them. An article's answer sentences
// are phrasings in the trigram index (ngrams.ts); a document's pages are long prose, and indexing
// every sentence of every page that way made most of the index's build and of each search's cost.
// Instead a page is found by its words (BM25), and only the pages the words rank best have their
// sentences compared with the question, each weighed with the trigram index's frequencies of the
// moment. A page's sentence vectors are made the first time it is compared and kept while the
// counts they were weighed with hold (docs/decisions.md, "Document pages are found by their words,
// and their sentences weigh as a page's").
import { grown } from './grown.js';
import { emptyBest, keepBest } from './keep-best.js';
import type { Passage } from './knowledge-files.js';
import type { PhrasingIndex, Vector } from './ngrams.js';
import { trigrams } from './trigrams.js';
import type { WordResults } from './word-index.js';

/** An answer sentence counts as a phrasing of its passage, discounted: it says how, not how members ask. */
export const ANSWER_SENTENCE_WEIGHT = 0.5;
/**
 * A compared page's similarity is its closest sentence's times this. A question meets a sentence of
 * prose less closely than a question written for it, and a page has no alternate questions: at the
 * articles' 0.5, one question in forty that a page answers was answered. Chosen on the older
 * evaluation questions laid out as pages, beside articles (`npm run eval -- documents`, "chosen on"
 * rows: 2 answers a third of the pages' questions with every article's answer kept).
 */
export const PAGE_SENTENCE_WEIGHT = 2;
/** How many document pages, the best by their words, have their sentences compared with a question. */
export const COMPARED_PAGES = 10;

/** The sentences of an answer, as the phrasing index splits them. */
export const sentencesOf = (answer: string): string[] => answer.split(/[.!?؟;؛:]\s/);

/** A page's sentences: each one's trigram numbers and their values (normalised), one after another. */
interface PageVectors {
  /** The counts the values were weighed with (PhrasingIndex.state) and the words read with. */
  counts: number;
  vocabulary: number;
  /** Where each sentence's numbers start in grams/values; the last entry is the end. */
  starts: Int32Array;
  grams: Int32Array;
  /** How often each trigram occurs in its sentence. */
  repeats: Uint16Array;
  values: Float64Array;
}

/** What the sentences are read and weighed with: a language's index (knowledge-index.ts). */
interface Index {
  readonly phrasings: PhrasingIndex;
  /** Changes whenever what words() makes of a token may change. */
  readonly vocabularyVersion: number;
}

export class DocumentSentences {
  /** By page (the passage object: an edit makes a new one, so a replaced page is never read stale). */
  private readonly pages = new WeakMap<Passage, PageVectors>();
  /** The trigrams of the sentences compared so far, numbered as first met. */
  private readonly ids = new Map<string, number>();
  private readonly grams: string[] = [];
  /** Scratch by trigram number: the question's value (0 between calls). */
  private query = new Float64Array(1024);

  constructor(
    private readonly index: Index,
    private readonly wordsOf: (text: string) => string[],
  ) {}

  /**
   * Raises each compared page's similarity (by slot) to its closest sentence's, when that is
   * higher: the pages are the document pages the word search found, the COMPARED_PAGES of the
   * highest word score. The question comes as its trigram vector (PhrasingIndex.vector).
   */
  raise(
    similarity: Float64Array,
    vector: Vector,
    found: WordResults,
    bySlot: ReadonlyArray<Passage | undefined>,
    documentSlot: readonly number[],
  ): void {
    const best = emptyBest(COMPARED_PAGES);
    for (const slot of found.slots) if (documentSlot[slot] === 1) keepBest(best, slot, found.scores[slot]!);
    const chosen = best.items;
    if (chosen.length === 0) return;
    const pages = chosen.map((slot) => this.vectorsOf(bySlot[slot]!));
    // The question's vector by trigram number; a trigram no compared sentence has cannot add to a dot.
    const set: number[] = [];
    for (const [gram, value] of vector) {
      const id = this.ids.get(gram);
      if (id === undefined) continue;
      this.query[id] = value;
      set.push(id);
    }
    const query = this.query;
    chosen.forEach((slot, i) => {
      const { starts, grams, values } = pages[i]!;
      let best = 0;
      for (let sentence = 0; sentence + 1 < starts.length; sentence += 1) {
        let dot = 0;
        for (let k = starts[sentence]!; k < starts[sentence + 1]!; k += 1) dot += query[grams[k]!]! * values[k]!;
        if (dot > best) best = dot;
      }
      const score = best * PAGE_SENTENCE_WEIGHT;
      if (score > similarity[slot]!) similarity[slot] = score;
    });
    for (const id of set) query[id] = 0;
  }

  private idOf(gram: string): number {
    let id = this.ids.get(gram);
    if (id === undefined) {
      id = this.grams.length;
      this.ids.set(gram, id);
      this.grams.push(gram);
      if (id >= this.query.length) this.query = grown(this.query, id);
    }
    return id;
  }

  private vectorsOf(page: Passage): PageVectors {
    const { phrasings, vocabularyVersion } = this.index;
    let kept = this.pages.get(page);
    if (kept && kept.counts === phrasings.state && kept.vocabulary === vocabularyVersion) return kept;
    if (!kept || kept.vocabulary !== vocabularyVersion) {
      // Each sentence's distinct trigram numbers, with how often each occurs in it.
      const starts = [0];
      const grams: number[] = [];
      const repeats: number[] = [];
      for (const sentence of sentencesOf(page.answer)) {
        const counted = new Map<number, number>();
        for (const gram of trigrams(this.wordsOf(sentence))) {
          const id = this.idOf(gram);
          counted.set(id, (counted.get(id) ?? 0) + 1);
        }
        for (const [id, count] of counted) {
          grams.push(id);
          repeats.push(count);
        }
        starts.push(grams.length);
      }
      kept = {
        counts: -1,
        vocabulary: vocabularyVersion,
        starts: Int32Array.from(starts),
        grams: Int32Array.from(grams),
        repeats: Uint16Array.from(repeats),
        values: new Float64Array(grams.length),
      };
      this.pages.set(page, kept);
    }
    this.weigh(kept);
    return kept;
  }

  /** The values of a page's sentences with the counts of the moment: how often × weight, normalised. */
  private weigh(page: PageVectors): void {
    const { phrasings } = this.index;
    const { starts, grams, repeats, values } = page;
    for (let sentence = 0; sentence + 1 < starts.length; sentence += 1) {
      let norm = 0;
      for (let k = starts[sentence]!; k < starts[sentence + 1]!; k += 1) {
        values[k] = repeats[k]! * phrasings.weightOf(this.grams[grams[k]!]!);
        norm += values[k]! * values[k]!;
      }
      norm = Math.sqrt(norm) || 1;
      for (let k = starts[sentence]!; k < starts[sentence + 1]!; k += 1) values[k] = values[k]! / norm;
    }
    page.counts = phrasings.state;
  }
}
