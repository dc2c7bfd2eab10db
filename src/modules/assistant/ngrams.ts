// Character n-gram similarity between a question and the ways a passage is asked (its heading and
// alternate questions): a misspelt or colloquial word still shares most of its trigrams with the
// written one (acount/account, پروژم/پروژه), where whole-word search finds nothing.
const N = 3;

export type Vector = Map<string, number>;

/**
 * The trigrams of each word, padded with a space on both sides so word starts and ends count,
 * and each pair of neighbouring words as one more feature, so word order counts too ("status
 * changed" meets the passage that says it, not every passage with "status" and "changed").
 */
export function trigrams(words: string[]): string[] {
  const grams: string[] = [];
  for (const [index, word] of words.entries()) {
    const padded = ` ${word} `;
    if (padded.length <= N) grams.push(padded);
    for (let i = 0; i + N <= padded.length; i += 1) grams.push(padded.slice(i, i + N));
    if (index > 0) grams.push(`${words[index - 1]}|${word}`);
  }
  return grams;
}

/**
 * TF-IDF trigram vectors of phrasings, each phrasing belonging to one owner (a passage's slot), kept
 * as an inverted index (trigram → phrasings holding it) so a query only visits phrasings it shares
 * a trigram with; cosine similarity. Phrasings can be added and removed one owner at a time: the
 * document frequencies follow at once, while the vectors already stored keep the weights they were
 * built with until the next full build (a drift of a few articles in hundreds, see docs/decisions.md).
 */
export class PhrasingIndex {
  private readonly frequency = new Map<string, number>();
  private documents = 0;
  private readonly postings = new Map<string, Array<{ entry: number; value: number }>>();
  /** Per entry: its owner, or -1 once removed. */
  private readonly owners: number[] = [];
  private readonly weights: number[] = [];
  private readonly grams: string[][] = [];
  private readonly entriesOf = new Map<number, number[]>();

  constructor(phrasings: Array<{ owner: number; words: string[]; weight?: number }>) {
    this.add(phrasings);
  }

  private count(grams: string[], delta: number): void {
    this.documents += delta;
    for (const g of grams) {
      const df = (this.frequency.get(g) ?? 0) + delta;
      if (df > 0) this.frequency.set(g, df);
      else this.frequency.delete(g);
    }
  }

  private store(p: { owner: number; words: string[]; weight?: number }, grams: string[]): void {
    const entry = this.owners.length;
    this.owners.push(p.owner);
    this.weights.push(p.weight ?? 1);
    this.grams.push(grams);
    const entries = this.entriesOf.get(p.owner);
    if (entries) entries.push(entry);
    else this.entriesOf.set(p.owner, [entry]);
    for (const [g, value] of this.vector(p.words)) {
      const list = this.postings.get(g);
      if (list) list.push({ entry, value });
      else this.postings.set(g, [{ entry, value }]);
    }
  }

  /** Adds one owner's phrasings (weighted with the document frequencies as they are now). */
  add(phrasings: Array<{ owner: number; words: string[]; weight?: number }>): void {
    const documents = phrasings.map((p) => [...new Set(trigrams(p.words))]);
    for (const grams of documents) this.count(grams, 1);
    for (const [i, p] of phrasings.entries()) this.store(p, documents[i]!);
  }

  /** Removes every phrasing of an owner. */
  remove(owner: number): void {
    for (const entry of this.entriesOf.get(owner) ?? []) {
      const grams = this.grams[entry]!;
      this.count(grams, -1);
      for (const g of grams) {
        const list = this.postings.get(g);
        if (!list) continue;
        const kept = list.filter((posting) => posting.entry !== entry);
        if (kept.length > 0) this.postings.set(g, kept);
        else this.postings.delete(g);
      }
      this.owners[entry] = -1;
      this.grams[entry] = [];
    }
    this.entriesOf.delete(owner);
  }

  vector(words: string[]): Vector {
    // A trigram no phrasing has still counts in the question's length, as the rarest kind.
    const unseen = Math.log(1 + this.documents);
    const vector: Vector = new Map();
    for (const g of trigrams(words)) {
      const df = this.frequency.get(g);
      vector.set(g, (vector.get(g) ?? 0) + (df === undefined ? unseen : Math.log(1 + this.documents / df)));
    }
    let norm = 0;
    for (const v of vector.values()) norm += v * v;
    norm = Math.sqrt(norm) || 1;
    for (const [g, v] of vector) vector.set(g, v / norm);
    return vector;
  }

  /** Per owner, the best (weighted) cosine similarity of the words to one of its phrasings (0 to 1). */
  similarities(words: string[], owners: number): Float64Array {
    const dots = new Float64Array(this.owners.length);
    for (const [g, v] of this.vector(words)) {
      const list = this.postings.get(g);
      if (list) for (const { entry, value } of list) dots[entry] = dots[entry]! + v * value;
    }
    const best = new Float64Array(owners);
    for (let entry = 0; entry < dots.length; entry += 1) {
      const score = dots[entry]! * this.weights[entry]!;
      const owner = this.owners[entry]!;
      if (owner >= 0 && score > best[owner]!) best[owner] = score;
    }
    return best;
  }
}
