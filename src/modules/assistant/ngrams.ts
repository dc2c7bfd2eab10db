// Character n-gram similarity between a question and the ways a passage is asked (its heading and
// alternate questions): a misspelt or colloquial word still shares most of its trigrams with the
// written one (acount/account, پروژم/پروژه), where whole-word search finds nothing.
import { grown } from './grown.js';
import { addRun, append, newPostings, reserveAll } from './postings.js';
import { trigrams, wordTrigrams } from './trigrams.js';

export type Vector = Map<string, number>;

/** A phrasing: the words of one way a passage is asked, its owner (the passage's slot) and weight. */
export interface Phrasing {
  owner: number;
  words: string[];
  weight?: number;
}

/**
 * When the phrasings added and removed since the stored vectors were weighed pass this share, the
 * next search weighs them all again with the frequencies of the moment, as a full build would.
 */
const DRIFT = 0.05;

/**
 * TF-IDF trigram vectors of phrasings, each phrasing belonging to one owner (a passage's slot), kept
 * as an inverted index (trigram → phrasings holding it, with the value) so a query only visits
 * phrasings it shares a trigram with; cosine similarity. Trigrams are numbered as they are first
 * seen, and each word's trigram numbers are kept, so a word met again costs one look-up. Phrasings
 * can be added and removed one owner at a time: the document frequencies follow at once, the
 * vectors stored keep the weights they were made with until the drift passes DRIFT (see above).
 */
export class PhrasingIndex {
  private readonly ids = new Map<string, number>();
  /** Per trigram number: in how many live phrasings it occurs. */
  private readonly frequency: number[] = [];
  /** Per trigram number: the entries holding it and the trigram's value in each, in entry order. */
  private readonly postings = newPostings();
  // Per word met: its number; per word number: its trigram numbers, and the number of each pair it
  // starts by the second word's number (a pair met again is found without building its key).
  private readonly wordNumbers = new Map<string, number>();
  private readonly gramsOfWord: Int32Array[] = [];
  private readonly pairsOf: Array<Map<number, number>> = [];
  private documents = 0;
  /** Per entry: its owner, or -1 once removed. */
  private readonly owners: number[] = [];
  private readonly weights: number[] = [];
  // Per entry: its trigram numbers in order, repeats included, one entry after another in one array
  // (not an object per entry); a removed entry's length is 0; the next weighing packs the rest.
  private data = new Int32Array(1 << 16);
  private used = 0;
  private readonly starts: number[] = [];
  private readonly lengths: number[] = [];
  private readonly entriesOf = new Map<number, number[]>();
  /** Phrasings added or removed since every vector was last weighed. */
  private changed = 0;
  // Scratch space by trigram number: a stamp per number (seen in the current phrasing) and a sum.
  private mark = new Int32Array(1024);
  private stamp = 0;
  private sums = new Float64Array(1024);
  // Scratch: by trigram number, how many of add()'s phrasings hold it (0 between calls); distinct()'s result.
  private more = new Int32Array(1024);
  private unique = new Int32Array(1024);
  // Each trigram's weight, computed once per state of the counts (a build weighs all with one
  // state); the state changes whenever the counts do (a phrasing added or removed).
  private idf = new Float64Array(1024);
  private idfState = new Int32Array(1024);
  state = 1;
  /** Scratch space by entry for similarities(): every value is 0 between calls; and its result's room. */
  private dots = new Float64Array(1024);
  private best = new Float64Array(1024);

  constructor(phrasings: Phrasing[]) {
    this.add(phrasings);
    this.changed = 0;
  }

  private idOf(gram: string): number {
    let id = this.ids.get(gram);
    if (id === undefined) {
      id = this.frequency.length;
      this.ids.set(gram, id);
      this.frequency.push(0);
      addRun(this.postings);
      if (id >= this.mark.length) {
        this.mark = grown(this.mark, id);
        // Sums are set before they are read, and a weight whose state is not the counts' is
        // computed again: these start empty at the new length.
        this.sums = new Float64Array(this.mark.length);
        this.idf = new Float64Array(this.mark.length);
        this.idfState = new Int32Array(this.mark.length);
        // Widened with the marks, keeping the counts of an add() under way.
        this.more = grown(this.more, id);
      }
    }
    return id;
  }

  /** Stores the trigram numbers of the words (as trigrams() lists them) as the next entry's sequence. */
  private store(words: string[]): void {
    const start = this.used;
    let previous = -1;
    for (let i = 0; i < words.length; i += 1) {
      const word = words[i]!;
      let number = this.wordNumbers.get(word);
      if (number === undefined) {
        number = this.gramsOfWord.length;
        this.wordNumbers.set(word, number);
        this.gramsOfWord.push(Int32Array.from(wordTrigrams(word), (g) => this.idOf(g)));
        this.pairsOf.push(new Map());
      }
      for (const g of this.gramsOfWord[number]!) this.push(g);
      if (previous >= 0) {
        const pairs = this.pairsOf[previous]!;
        let pair = pairs.get(number);
        if (pair === undefined) {
          pair = this.idOf(`${words[i - 1]}|${word}`);
          pairs.set(number, pair);
        }
        this.push(pair);
      }
      previous = number;
    }
    this.starts.push(start);
    this.lengths.push(this.used - start);
  }

  private push(id: number): void {
    if (this.used === this.data.length) this.data = grown(this.data, this.used);
    this.data[this.used++] = id;
  }

  /** An entry's trigram numbers (a view, valid until the next store or packing). */
  private sequence(entry: number): Int32Array {
    const start = this.starts[entry]!;
    return this.data.subarray(start, start + this.lengths[entry]!);
  }

  /** The distinct numbers of a sequence, in order of first occurrence: the first `count` of `unique`. */
  private distinct(sequence: Int32Array): number {
    const stamp = ++this.stamp;
    if (this.unique.length < sequence.length) this.unique = new Int32Array(sequence.length * 2);
    const { mark, unique } = this;
    let count = 0;
    for (const id of sequence)
      if (mark[id] !== stamp) {
        mark[id] = stamp;
        unique[count++] = id;
      }
    return count;
  }

  /** Counts in or out the `distinct` numbers distinct() last found. */
  private count(distinct: number, delta: number): void {
    this.state += 1;
    this.documents += delta;
    const { unique, frequency } = this;
    for (let k = 0; k < distinct; k += 1) frequency[unique[k]!]! += delta;
  }

  /** Puts an entry's vector, weighed with the document frequencies of the moment, in the postings. */
  private post(entry: number, sequence: Int32Array): void {
    const distinct = this.distinct(sequence);
    const { sums, unique: grams, idf, idfState, state: countState } = this;
    for (let k = 0; k < distinct; k += 1) {
      const g = grams[k]!;
      sums[g] = 0;
      if (idfState[g] !== countState) {
        idf[g] = Math.log(1 + this.documents / this.frequency[g]!);
        idfState[g] = countState;
      }
    }
    for (const g of sequence) sums[g] = sums[g]! + idf[g]!;
    let norm = 0;
    for (let k = 0; k < distinct; k += 1) norm += sums[grams[k]!]! * sums[grams[k]!]!;
    norm = Math.sqrt(norm) || 1;
    for (let k = 0; k < distinct; k += 1) append(this.postings, grams[k]!, entry, sums[grams[k]!]! / norm);
  }

  /** Adds phrasings (each weighed with the document frequencies once all of them are counted). */
  add(phrasings: Phrasing[]): void {
    const first = this.owners.length;
    // How many of the new phrasings hold each trigram (by number; `held` lists those counted): its
    // postings grow by that much, at once.
    const held: number[] = [];
    // Room for the numbers of every new phrasing at once: a word has at most its length + 1, a pair 1.
    let size = this.used;
    for (const p of phrasings) for (const word of p.words) size += word.length + 2;
    if (size > this.data.length) this.data = grown(this.data, size);
    for (const p of phrasings) {
      const entry = this.owners.length;
      this.owners.push(p.owner);
      this.weights.push(p.weight ?? 1);
      this.store(p.words);
      const entries = this.entriesOf.get(p.owner);
      if (entries) entries.push(entry);
      else this.entriesOf.set(p.owner, [entry]);
      const distinct = this.distinct(this.sequence(entry));
      this.count(distinct, 1);
      const { more, unique } = this;
      for (let k = 0; k < distinct; k += 1) {
        const g = unique[k]!;
        if (more[g] === 0) held.push(g);
        more[g] = more[g]! + 1;
      }
    }
    reserveAll(this.postings, held, this.more);
    for (let entry = first; entry < this.owners.length; entry += 1) this.post(entry, this.sequence(entry));
    this.changed += phrasings.length;
  }

  /** Removes every phrasing of an owner (its postings stay, skipped, until the next weighing). */
  remove(owner: number): void {
    for (const entry of this.entriesOf.get(owner) ?? []) {
      this.count(this.distinct(this.sequence(entry)), -1);
      this.owners[entry] = -1;
      this.lengths[entry] = 0;
      this.changed += 1;
    }
    this.entriesOf.delete(owner);
  }

  /** Weighs every live phrasing again with today's document frequencies, as a full build would. */
  reweigh(): void {
    this.pack();
    this.postings.length.fill(0);
    for (let entry = 0; entry < this.owners.length; entry += 1)
      if (this.owners[entry]! >= 0) this.post(entry, this.sequence(entry));
    this.changed = 0;
  }

  /** Moves the live entries' numbers together, leaving out those of removed entries. */
  private pack(): void {
    const data = new Int32Array(Math.max(1 << 16, this.used));
    let used = 0;
    for (let entry = 0; entry < this.owners.length; entry += 1) {
      const length = this.lengths[entry]!;
      data.set(this.data.subarray(this.starts[entry]!, this.starts[entry]! + length), used);
      this.starts[entry] = used;
      used += length;
    }
    this.data = data;
    this.used = used;
  }

  /** A trigram's weight with the counts of the moment; one no phrasing has (in a question, a document's sentence) weighs as the rarest kind. */
  weightOf(gram: string): number {
    const id = this.ids.get(gram);
    const df = id === undefined ? 0 : this.frequency[id]!;
    return Math.log(1 + (df === 0 ? this.documents : this.documents / df));
  }

  /** The words' trigram vector, weighed with the counts of the moment and normalised. */
  vector(words: string[]): Vector {
    const vector: Vector = new Map();
    for (const g of trigrams(words)) vector.set(g, (vector.get(g) ?? 0) + this.weightOf(g));
    let norm = 0;
    for (const v of vector.values()) norm += v * v;
    norm = Math.sqrt(norm) || 1;
    for (const [g, v] of vector) vector.set(g, v / norm);
    return vector;
  }

  /**
   * Per owner, the best (weighted) cosine similarity of a query (its vector()) to one of its phrasings
   * (0 to 1): the index's own array, valid until its next call (not a new one per call: less garbage).
   */
  similarities(query: Vector, owners: number): Float64Array {
    if (this.changed > this.documents * DRIFT) this.reweigh();
    const count = this.owners.length;
    if (this.dots.length < count) this.dots = new Float64Array(count * 2);
    const dots = this.dots;
    for (const [g, v] of query) {
      const id = this.ids.get(g);
      if (id === undefined) continue;
      const { postings } = this;
      const block = postings.block[id]!;
      const entries = postings.entries[block]!;
      const values = postings.values[block]!;
      const start = postings.start[id]!;
      const end = start + postings.length[id]!;
      for (let k = start; k < end; k += 1) {
        const entry = entries[k]!;
        dots[entry] = dots[entry]! + v * values[k]!;
      }
    }
    // One pass over every entry (common trigrams reach most of them), then the scratch back to 0.
    if (this.best.length < owners) this.best = new Float64Array(owners * 2);
    const best = this.best.fill(0, 0, owners).subarray(0, owners);
    const { weights } = this;
    const entryOwners = this.owners;
    for (let entry = 0; entry < count; entry += 1) {
      const dot = dots[entry]!;
      if (dot === 0) continue;
      const owner = entryOwners[entry]!;
      const score = dot * weights[entry]!;
      if (owner >= 0 && score > best[owner]!) best[owner] = score;
    }
    dots.fill(0, 0, count);
    return best;
  }
}
