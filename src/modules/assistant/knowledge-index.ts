// One language's share of the knowledge base: its passages, their BM25 index (word-index.ts), the
// trigram index of their phrasings (ngrams.ts), the words they use and in how many passages each
// occurs. Built whole at start; afterwards a passage is added, replaced or removed on its own, so a
// change to one article re-indexes that article only.
import type { Locale } from '../../core/i18n.js';
import type { Passage } from './knowledge-files.js';
import { ANSWER_SENTENCE_WEIGHT, DocumentSentences, sentencesOf } from './document-sentences.js';
import { PhrasingIndex } from './ngrams.js';
import { searchTerm, tokenize } from './terms.js';
import { distinctTerms, fields, tokensOf, type Tokens } from './passage-tokens.js';
import { termCounts } from './term-counts.js';
import { WordIndex } from './word-index.js';

/** The phrasing index's owner of the questions outside the scope; passages own 1, 2, ... */
export const OUTSIDE_OWNER = 0;

/** The words of a text as the index knows them (KnowledgeBase.words, bound to a language). */
export type Words = (text: string) => string[];

/**
 * Passages from one source (an article, an uploaded document) that the knowledge base adds,
 * replaces and removes together. A passage without a source is its own (`<lang>:<id>`).
 */
export interface PassageSource {
  add(source: string, passages: Passage[]): void;
  remove(source: string): void;
}

export const ownSource = (passage: Passage): string => `${passage.lang}:${passage.id}`;

/**
 * What the Finglish reader learns from a Persian passage: its words, those of an uploaded document's
 * page from its citation and heading only (a page's prose is found by its Persian words).
 */
export const persianTexts = (p: Passage): string[] =>
  p.document ? [p.question, ...p.alternates] : [p.question, ...p.alternates, p.answer];

/** Counts the terms in or out; true when a term came in or left (the counted words changed). */
function countInto(counts: Map<string, number>, terms: Iterable<string>, delta: number): boolean {
  let changed = false;
  for (const term of terms) {
    const count = (counts.get(term) ?? 0) + delta;
    if (count > 0) {
      if (count === delta) changed = true;
      counts.set(term, count);
    } else {
      counts.delete(term);
      changed = true;
    }
  }
  return changed;
}

export class LanguageIndex {
  /** By id, in the order they were added (a tie in score keeps it). */
  readonly passages = new Map<string, Passage>();
  /** By topic, then by id: the topic's passages in the order of `passages`. */
  readonly byTopic = new Map<string, Map<string, Passage>>();
  /** Per passage id: its owner number in the phrasing index. */
  readonly slots = new Map<string, number>();
  private readonly freeSlots: number[] = [];
  /** Changes whenever a slot is taken or freed (what bySlot and slots hold changed). */
  slotsVersion = 0;
  private nextSlot = OUTSIDE_OWNER + 1;
  /** In how many passages (heading or answer) each word occurs: the words the passages use. */
  readonly vocabulary = new Map<string, number>();
  /** Changes whenever a word enters or leaves the vocabulary (what words() makes of a token may change). */
  vocabularyVersion = 0;
  /** In how many passages (heading, alternates or answer) each word occurs. */
  readonly frequency = new Map<string, number>();
  /**
   * Persian words that a passage other than a document's page writes with a ZWNJ (سرمایه‌گذاری),
   * under the token they make glued (سرمایهگذاری): their parts, and in how many passages. Text read
   * from a PDF, and members' messages, often glue them; words() reads the glued token as its parts.
   */
  readonly joins = new Map<string, { parts: string[]; count: number }>();
  /** By slot: the passage holding it. */
  readonly bySlot: Array<Passage | undefined> = [];
  /** By slot: 1 when it holds a page of an uploaded document. */
  readonly documentSlot: number[] = [];
  readonly words = new WordIndex(searchTerm);
  phrasings!: PhrasingIndex;
  /** Compares the sentences of the best document pages with a question (document-sentences.ts). */
  readonly sentences: DocumentSentences;

  constructor(
    readonly lang: Locale,
    passages: Passage[],
    private readonly outside: string[],
    private readonly wordsOf: Words,
  ) {
    this.sentences = new DocumentSentences(this, wordsOf);
    // The words first (the phrasings come in indexPhrasings): how a phrasing is read depends on the
    // vocabulary and the joined words of every passage.
    // The terms are counted in all at once (term-counts.ts); the maps are empty until then.
    const counts = termCounts();
    for (const p of passages) {
      this.passages.set(p.id, p);
      this.enterTopic(p);
      this.countJoins(p, 1);
      const tokens = tokensOf(p);
      counts.add(tokens.terms);
      this.words.addTerms(this.takeSlot(p), fields(tokens));
    }
    if (counts.writeInto(this.vocabulary, this.frequency)) this.vocabularyVersion += 1;
  }

  /** Builds the phrasing index, once the knowledge base reads words with this language's vocabulary. */
  indexPhrasings(): void {
    const phrasings = [...this.passages.values()].flatMap((p) => this.phrasingsOf(p, this.slots.get(p.id)!));
    phrasings.push(...this.outside.map((text) => ({ owner: OUTSIDE_OWNER, words: this.wordsOf(text) })));
    this.phrasings = new PhrasingIndex(phrasings);
  }

  private scoresRoom = new Float64Array(0);
  /** Room for a search's score of each of `size` slots (rankPassages): the index's own, reused by its next search. */
  scoresScratch(size: number): Float64Array {
    if (this.scoresRoom.length < size) this.scoresRoom = new Float64Array(size * 2);
    return this.scoresRoom.subarray(0, size);
  }

  /** The number of phrasing owners (the size of a similarity array). */
  get owners(): number {
    return this.nextSlot;
  }

  private enterTopic(passage: Passage): void {
    const topic = this.byTopic.get(passage.topic);
    if (topic) topic.set(passage.id, passage);
    else this.byTopic.set(passage.topic, new Map([[passage.id, passage]]));
  }

  private takeSlot(passage: Passage): number {
    const slot = this.freeSlots.pop() ?? this.nextSlot++;
    this.slotsVersion += 1;
    this.slots.set(passage.id, slot);
    this.bySlot[slot] = passage;
    this.documentSlot[slot] = passage.document ? 1 : 0;
    return slot;
  }

  private count(tokens: Tokens, delta: number): void {
    // The terms of each part once: the terms of the parts joined are the union of theirs.
    const { terms } = tokens;
    const headingAndAnswer = distinctTerms([terms.question, terms.answer]);
    if (countInto(this.vocabulary, headingAndAnswer, delta)) this.vocabularyVersion += 1;
    countInto(this.frequency, headingAndAnswer, delta);
    countInto(this.frequency, distinctTerms(terms.alternates, headingAndAnswer), delta);
  }

  /** Counts a passage's words written with a ZWNJ in or out (a change of them changes what words() reads). */
  private countJoins(p: Passage, delta: number): void {
    if (p.document || this.lang !== 'fa') return;
    for (const text of [p.question, ...p.alternates, p.answer]) {
      if (!text.includes('\u200C')) continue;
      for (const [written] of text.matchAll(JOINED)) {
        const glued = tokenize(written.replaceAll('\u200C', ''));
        if (glued.length !== 1) continue;
        const key = glued[0]!;
        const known = this.joins.get(key);
        if (known) {
          known.count += delta;
          if (known.count > 0) continue;
          this.joins.delete(key);
        } else if (delta > 0) this.joins.set(key, { parts: tokenize(written), count: delta });
        else continue;
        this.vocabularyVersion += 1;
      }
    }
  }

  private phrasingsOf(p: Passage, owner: number): Array<{ owner: number; words: string[]; weight?: number }> {
    const asked = [p.question, ...p.alternates].map((text) => ({ owner, words: this.wordsOf(text) }));
    if (p.document) return asked;
    return [
      ...asked,
      ...sentencesOf(p.answer).map((text) => ({ owner, words: this.wordsOf(text), weight: ANSWER_SENTENCE_WEIGHT })),
    ];
  }

  /** Takes a passage out of every structure; returns it (undefined when it was not there). */
  remove(id: string): Passage | undefined {
    const passage = this.passages.get(id);
    if (!passage) return undefined;
    this.passages.delete(id);
    const topic = this.byTopic.get(passage.topic);
    topic?.delete(id);
    if (topic?.size === 0) this.byTopic.delete(passage.topic);
    this.count(tokensOf(passage), -1);
    this.countJoins(passage, -1);
    const slot = this.slots.get(id)!;
    this.words.remove(slot);
    this.phrasings.remove(slot);
    this.slots.delete(id);
    this.bySlot[slot] = undefined;
    this.documentSlot[slot] = 0;
    this.freeSlots.push(slot);
    this.slotsVersion += 1;
    return passage;
  }

  /** Adds a passage, replacing the one with its id. */
  add(passage: Passage): void {
    this.remove(passage.id);
    this.passages.set(passage.id, passage);
    this.enterTopic(passage);
    this.countJoins(passage, 1);
    const tokens = tokensOf(passage);
    this.count(tokens, 1);
    const slot = this.takeSlot(passage);
    this.words.addTerms(slot, fields(tokens));
    this.phrasings.add(this.phrasingsOf(passage, slot));
  }
}

/** A Persian word written in parts joined by ZWNJs. */
const JOINED = /[\u0600-\u06FF]+(?:\u200C[\u0600-\u06FF]+)+/g;
