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
 * TF-IDF trigram vectors of phrasings, each phrasing belonging to one passage, kept as an
 * inverted index (trigram → phrasings holding it) so a query only visits phrasings it shares a
 * trigram with; cosine similarity.
 */
export class PhrasingIndex {
  private readonly idf = new Map<string, number>();
  private readonly postings = new Map<string, Array<{ entry: number; value: number }>>();
  private readonly owners: number[] = [];
  private readonly weights: number[] = [];
  private readonly unseen: number;

  constructor(phrasings: Array<{ owner: number; words: string[]; weight?: number }>) {
    const documents = phrasings.map((p) => new Set(trigrams(p.words)));
    const frequency = new Map<string, number>();
    for (const grams of documents) for (const g of grams) frequency.set(g, (frequency.get(g) ?? 0) + 1);
    for (const [g, df] of frequency) this.idf.set(g, Math.log(1 + documents.length / df));
    // A trigram no phrasing has still counts in the question's length, as the rarest kind.
    this.unseen = Math.log(1 + documents.length);
    phrasings.forEach((p, entry) => {
      this.owners.push(p.owner);
      this.weights.push(p.weight ?? 1);
      for (const [g, value] of this.vector(p.words)) {
        const list = this.postings.get(g);
        if (list) list.push({ entry, value });
        else this.postings.set(g, [{ entry, value }]);
      }
    });
  }

  vector(words: string[]): Vector {
    const vector: Vector = new Map();
    for (const g of trigrams(words)) vector.set(g, (vector.get(g) ?? 0) + (this.idf.get(g) ?? this.unseen));
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
      if (score > best[owner]!) best[owner] = score;
    }
    return best;
  }
}
