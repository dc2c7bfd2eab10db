// The word (BM25) half of the knowledge base's search: an inverted index of the search terms of
// each passage's two fields (its questions, its answer), kept in flat arrays by passage slot, so a
// search adds numbers into one typed array instead of building an object per passage and term.
// Scores are MiniSearch's (BM25+ with its k, b and d, its field boosts, and its weights for prefix
// and fuzzy matches, the terms found in its radix tree); the dictionary is MiniSearch's own radix
// tree, so prefix and fuzzy matches come in the same order and the sums are the same numbers.
import SearchableMap from 'minisearch/SearchableMap';
import { grown } from './grown.js';
import { addRun, append, newPostings, removeFrom } from './postings.js';

// MiniSearch's defaults (BM25+ parameters and the weights of derived terms).
const K = 1.2;
const B = 0.7;
const D = 0.5;
const PREFIX_WEIGHT = 0.375;
const FUZZY_WEIGHT = 0.45;
const MAX_FUZZY = 6;
/** How many terms' dictionary matches a word index keeps (WordIndex.derivedOf). */
const DERIVED_KEPT = 4096;

/** The two fields of a passage, and how much a match in each counts. */
const FIELDS = ['question', 'answer'] as const;
const BOOSTS = [2, 1];

/** One field of a slot: how many distinct tokens it has (its length), and each token's processed term (null for none). */
export interface FieldTerms {
  length: number;
  terms: readonly (string | null)[];
}

export interface WordQuery {
  /** Terms of length ≥ this also match the terms they start. */
  prefixFrom: number;
  /** Terms of length ≥ this also match terms within a fifth of their length in edits. */
  fuzzyFrom: number;
}

/** What search() found; its arrays are the index's own and hold until the next search. */
export interface WordResults {
  /** The slots some term matched, in the order first matched. */
  slots: number[];
  /** By slot: the BM25 score (0 for a slot no term matched). */
  scores: Float64Array;
  /** By slot: how many of the query's terms it matched. */
  counts: Uint16Array;
  /** The query terms each slot matched (term positions in the query). */
  termsOf(slot: number): number[];
  /** The query's terms some passage matched. */
  matched: Set<string>;
}

export class WordIndex {
  private readonly dictionary = new SearchableMap<number>();
  /** The same terms in a plain map (a radix tree walk per token would cost more), and by number. */
  private readonly termIds = new Map<string, number>();
  private readonly termNames: string[] = [];
  /**
   * Per term number and field (run term * 2 + field): the slots holding the term and how often, in
   * shared typed arrays (postings.ts; arrays of numbers grown one push at a time were most of what a
   * build left for the collector to copy).
   */
  private readonly postings = newPostings();
  private readonly freeTerms: number[] = [];
  /** Per field, per slot: the number of distinct tokens of the field (MiniSearch's field length). */
  private readonly lengths: number[][] = [[], []];
  /** Per slot, per field: the term numbers it holds, once each. */
  private readonly termsOfSlot: number[][][] = [];
  private readonly average = [0, 0];
  // Scratch space of search(), by slot (see scratch()).
  private scores = new Float64Array(0);
  private counts = new Uint16Array(0);
  private head = new Int32Array(0);
  private partial = new Float64Array(0);
  private stamp = new Int32Array(0);
  private mark = 1;
  /** Scratch of add(), by term number: how often the term occurs in the field (0 between calls). */
  private tally = new Int32Array(1024);
  private lastSlots: number[] = [];
  private documents = 0;
  // A term's matches in the dictionary (derived()), by query settings and term: members use the same
  // words again and again, and the fuzzy walk is much of a search. Emptied whenever the dictionary
  // gains or loses a term; at most DERIVED_KEPT terms, the oldest dropped first.
  private readonly derivedOf = new Map<string, ReadonlyArray<readonly [number, number]>>();

  constructor(private readonly processTerm: (token: string) => string | null) {}

  /** The number of slots the scores arrays cover. */
  get size(): number {
    return this.termsOfSlot.length;
  }

  /** Indexes a slot's two fields, given as their tokens. */
  add(slot: number, fields: readonly [string[], string[]]): void {
    const field = (tokens: string[]): FieldTerms => ({
      length: new Set(tokens).size,
      terms: tokens.map(this.processTerm),
    });
    this.addTerms(slot, [field(fields[0]), field(fields[1])]);
  }

  /** Indexes a slot's two fields, given as the processed term of each token (add()'s, looked up once by the caller). */
  addTerms(slot: number, fields: readonly [FieldTerms, FieldTerms]): void {
    if (this.termsOfSlot[slot]) this.remove(slot);
    const held: number[][] = [];
    for (let field = 0; field < FIELDS.length; field += 1) {
      const { length, terms: processed } = fields[field]!;
      this.lengths[field]![slot] = length;
      this.average[field] = (this.average[field]! * this.documents + length) / (this.documents + 1);
      // How often each term occurs, by term number, in order of first occurrence.
      const terms: number[] = [];
      for (const term of processed) {
        if (!term) continue;
        const id = this.termIds.get(term) ?? this.newTerm(term);
        if (id >= this.tally.length) this.tally = grown(this.tally, id);
        if (this.tally[id] === 0) terms.push(id);
        this.tally[id] = this.tally[id]! + 1;
      }
      for (const id of terms) {
        append(this.postings, id * 2 + field, slot, this.tally[id]!);
        this.tally[id] = 0;
      }
      held.push(terms);
    }
    this.termsOfSlot[slot] = held;
    this.documents += 1;
  }

  remove(slot: number): void {
    const held = this.termsOfSlot[slot];
    if (!held) return;
    for (let field = 0; field < FIELDS.length; field += 1) {
      const length = this.lengths[field]![slot]!;
      this.average[field] =
        this.documents === 1 ? 0 : (this.average[field]! * this.documents - length) / (this.documents - 1);
      for (const id of held[field]!) removeFrom(this.postings, id * 2 + field, slot);
    }
    const { length: holding } = this.postings;
    for (const id of new Set(held.flat())) if (holding[id * 2] === 0 && holding[id * 2 + 1] === 0) this.dropTerm(id);
    delete this.termsOfSlot[slot];
    this.documents -= 1;
  }

  private newTerm(term: string): number {
    // A freed number's two runs are empty (dropTerm), ready for the new term.
    let id = this.freeTerms.pop();
    if (id === undefined) {
      id = this.termNames.length;
      for (const _ of FIELDS) addRun(this.postings);
    }
    this.termIds.set(term, id);
    this.termNames[id] = term;
    this.dictionary.set(term, id);
    this.derivedOf.clear();
    return id;
  }

  private dropTerm(id: number): void {
    const term = this.termNames[id]!;
    this.dictionary.delete(term);
    this.termIds.delete(term);
    this.freeTerms.push(id);
    this.derivedOf.clear();
  }

  /**
   * Every slot's score for the terms (OR): per term, the sum over its exact, prefix and fuzzy
   * matches in both fields; the terms' sums added; the total times the number of terms matched.
   */
  search(terms: string[], query: WordQuery): WordResults {
    const size = this.size;
    const { scores, counts, head } = this.scratch(size);
    const partial = this.partial;
    const slots: number[] = [];
    this.lastSlots = slots;
    const next: number[] = [];
    const position: number[] = [];
    const matched = new Set<string>();
    // By slot: the mark of the last term that touched it (marks grow from search to search).
    const stamp = this.stamp;
    const base = this.nextMark(terms.length);
    const touched: number[] = [];
    for (const [t, term] of terms.entries()) {
      touched.length = 0;
      for (const [id, weight] of this.derivedKept(term, query)) {
        for (let field = 0; field < FIELDS.length; field += 1) {
          const run = id * 2 + field;
          const holding = this.postings.length[run]!;
          if (holding === 0) continue;
          const idf = Math.log(1 + (this.documents - holding + 0.5) / (holding + 0.5));
          const lengths = this.lengths[field]!;
          const average = this.average[field]!;
          const factor = weight * BOOSTS[field]!;
          const held = this.postings.entries[this.postings.block[run]!]!;
          const freqs = this.postings.values[this.postings.block[run]!]!;
          const start = this.postings.start[run]!;
          for (let k = start; k < start + holding; k += 1) {
            const slot = held[k]!;
            const tf = freqs[k]!;
            const raw = idf * (D + (tf * (K + 1)) / (tf + K * (1 - B + (B * lengths[slot]!) / average)));
            partial[slot] = partial[slot]! + factor * raw;
            if (stamp[slot] !== base + t) {
              stamp[slot] = base + t;
              touched.push(slot);
            }
          }
        }
      }
      if (touched.length === 0) continue;
      matched.add(term);
      // A term given twice is scored twice but counts once among the terms a slot matched (as in MiniSearch).
      const first = terms.indexOf(term) === t;
      for (const slot of touched) {
        scores[slot] = scores[slot]! + partial[slot]!;
        partial[slot] = 0;
        if (!first) continue;
        counts[slot] = counts[slot]! + 1;
        if (head[slot] === -1) slots.push(slot);
        next.push(head[slot]!);
        position.push(t);
        head[slot] = next.length - 1;
      }
    }
    for (const slot of slots) scores[slot] = scores[slot]! * counts[slot]!;
    const termsOf = (slot: number): number[] => {
      const out: number[] = [];
      for (let entry = head[slot]!; entry !== -1; entry = next[entry]!) out.push(position[entry]!);
      return out.reverse();
    };
    return { slots, scores, counts, termsOf, matched };
  }

  /**
   * The by-slot arrays of a search, kept from one search to the next (a search's results are read
   * before the next search starts) and cleared where the last search wrote.
   */
  private scratch(size: number): { scores: Float64Array; counts: Uint16Array; head: Int32Array } {
    if (this.scores.length < size) {
      const room = size * 2;
      this.scores = new Float64Array(room);
      this.counts = new Uint16Array(room);
      this.head = new Int32Array(room).fill(-1);
      this.partial = new Float64Array(room);
      this.stamp = new Int32Array(room);
      this.mark = 1;
    } else {
      for (const slot of this.lastSlots) {
        this.scores[slot] = 0;
        this.counts[slot] = 0;
        this.head[slot] = -1;
      }
    }
    return { scores: this.scores, counts: this.counts, head: this.head };
  }

  /** The first of `count` fresh term marks. */
  private nextMark(count: number): number {
    if (this.mark + count + 1 >= 2 ** 31) {
      this.stamp.fill(0);
      this.mark = 1;
    }
    const base = this.mark;
    this.mark += count + 1;
    return base;
  }

  /** derived(), kept for the term until the dictionary changes (see derivedOf). */
  private derivedKept(term: string, query: WordQuery): ReadonlyArray<readonly [number, number]> {
    const key = `${query.prefixFrom},${query.fuzzyFrom},${term}`;
    const kept = this.derivedOf.get(key);
    if (kept) return kept;
    const found = this.derived(term, query);
    if (this.derivedOf.size >= DERIVED_KEPT) this.derivedOf.delete(this.derivedOf.keys().next().value!);
    this.derivedOf.set(key, found);
    return found;
  }

  /** A term's matches in the dictionary with their weights: exact, then prefix, then fuzzy (MiniSearch's order). */
  private derived(term: string, query: WordQuery): Array<[number, number]> {
    const out: Array<[number, number]> = [];
    const exact = this.dictionary.get(term);
    if (exact !== undefined) out.push([exact, 1]);
    const fuzzy =
      term.length >= query.fuzzyFrom
        ? this.dictionary.fuzzyGet(term, Math.min(MAX_FUZZY, Math.round(term.length * 0.2)))
        : undefined;
    if (term.length >= query.prefixFrom)
      for (const [found, id] of this.dictionary.atPrefix(term)) {
        const distance = found.length - term.length;
        if (!distance) continue;
        fuzzy?.delete(found);
        out.push([id, (PREFIX_WEIGHT * found.length) / (found.length + 0.3 * distance)]);
      }
    if (fuzzy)
      for (const [found, [id, distance]] of fuzzy) {
        if (!distance) continue;
        out.push([id, (FUZZY_WEIGHT * found.length) / (found.length + distance)]);
      }
    return out;
  }
}
