// The counts a language index keeps of its passages' terms (knowledge-index.ts): in how many
// passages each term occurs in a heading or an answer (the vocabulary), and in how many in any part
// (the frequency). A build counts thousands of passages at once: here by term number in typed
// arrays, each passage's terms told apart by a stamp, and the two maps written once per term at the
// end, in the order the per-passage counting would have written them (a map's order is the order
// its terms came in). Counting passage by passage cost two map updates per term and passage.
import { grown } from './grown.js';

/** A token's search term, null for a stop word. */
export type Term = string | null;

/** The search terms of a passage's parts, token by token. */
export interface PartTerms {
  question: Term[];
  alternates: Term[][];
  answer: Term[];
}

export interface TermCounts {
  /** Counts one more passage in. */
  add(terms: PartTerms): void;
  /** Writes the counts into the maps, each term in the order it was first counted; false when no term came. */
  writeInto(vocabulary: Map<string, number>, frequency: Map<string, number>): boolean;
}

export function termCounts(): TermCounts {
  const numbers = new Map<string, number>();
  const names: string[] = [];
  let vocabulary = new Int32Array(4096);
  let frequency = new Int32Array(4096);
  // The last passage each term was counted for, in the vocabulary and in the frequency.
  let inVocabulary = new Int32Array(4096);
  let inFrequency = new Int32Array(4096);
  const vocabularyOrder: number[] = [];
  const frequencyOrder: number[] = [];
  let passage = 0;

  const numberOf = (term: string): number => {
    let n = numbers.get(term);
    if (n === undefined) {
      n = names.length;
      numbers.set(term, n);
      names.push(term);
      if (n >= vocabulary.length) {
        vocabulary = grown(vocabulary, n);
        frequency = grown(frequency, n);
        inVocabulary = grown(inVocabulary, n);
        inFrequency = grown(inFrequency, n);
      }
    }
    return n;
  };

  const countFrequency = (n: number): void => {
    if (inFrequency[n] === passage) return;
    inFrequency[n] = passage;
    if (frequency[n] === 0) frequencyOrder.push(n);
    frequency[n] = frequency[n]! + 1;
  };

  const headingOrAnswer = (terms: Term[]): void => {
    for (const term of terms) {
      if (term === null) continue;
      const n = numberOf(term);
      if (inVocabulary[n] !== passage) {
        inVocabulary[n] = passage;
        if (vocabulary[n] === 0) vocabularyOrder.push(n);
        vocabulary[n] = vocabulary[n]! + 1;
      }
      countFrequency(n);
    }
  };

  return {
    add(terms) {
      passage += 1;
      // The heading's and the answer's terms first, then the alternates' (the counting by sets did so).
      headingOrAnswer(terms.question);
      headingOrAnswer(terms.answer);
      for (const list of terms.alternates) for (const term of list) if (term !== null) countFrequency(numberOf(term));
    },
    writeInto(vocabularyMap, frequencyMap) {
      for (const n of vocabularyOrder) vocabularyMap.set(names[n]!, vocabulary[n]!);
      for (const n of frequencyOrder) frequencyMap.set(names[n]!, frequency[n]!);
      return vocabularyOrder.length > 0;
    },
  };
}
