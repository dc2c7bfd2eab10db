// Character n-gram similarity between a question and the ways a passage is asked (its heading and
// alternate questions): a misspelt or colloquial word still shares most of its trigrams with the
// written one (acount/account, پروژم/پروژه), where whole-word search finds nothing.
const N = 3;

export type Vector = Map<string, number>;

/** The trigrams of each word, padded with a space on both sides so word starts and ends count. */
export function trigrams(words: string[]): string[] {
  const grams: string[] = [];
  for (const word of words) {
    const padded = ` ${word} `;
    if (padded.length <= N) grams.push(padded);
    for (let i = 0; i + N <= padded.length; i += 1) grams.push(padded.slice(i, i + N));
  }
  return grams;
}

/** TF-IDF trigram vectors of phrasings, each phrasing belonging to one passage; cosine similarity. */
export class PhrasingIndex {
  private readonly idf = new Map<string, number>();
  private readonly entries: Array<{ owner: number; weight: number; vector: Vector }> = [];
  private readonly unseen: number;

  constructor(phrasings: Array<{ owner: number; words: string[]; weight?: number }>) {
    const documents = phrasings.map((p) => new Set(trigrams(p.words)));
    const frequency = new Map<string, number>();
    for (const grams of documents) for (const g of grams) frequency.set(g, (frequency.get(g) ?? 0) + 1);
    for (const [g, df] of frequency) this.idf.set(g, Math.log(1 + documents.length / df));
    // A trigram no phrasing has still counts in the question's length, as the rarest kind.
    this.unseen = Math.log(1 + documents.length);
    for (const p of phrasings) this.entries.push({ owner: p.owner, weight: p.weight ?? 1, vector: this.vector(p.words) });
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

  /** Per owner, the best cosine similarity of the words to one of its phrasings (0 to 1). */
  similarities(words: string[], owners: number): Float64Array {
    const best = new Float64Array(owners);
    const query = this.vector(words);
    for (const { owner, weight, vector } of this.entries) {
      let dot = 0;
      for (const [g, v] of query) {
        const w = vector.get(g);
        if (w !== undefined) dot += v * w;
      }
      if (dot * weight > best[owner]!) best[owner] = dot * weight;
    }
    return best;
  }
}
