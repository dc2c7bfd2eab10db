// A build counts its passages' terms all at once (src/modules/assistant/term-counts.ts). The maps it
// writes must hold what counting passage by passage with sets holds (the way an edit still counts),
// the same counts in the same order: a map's order is the order its terms came in, and what reads
// the vocabulary meets its words in that order.
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../harness/random.js';
import { type PartTerms, type Term, termCounts } from '../../src/modules/assistant/term-counts.js';

/** Passage by passage: the heading's and answer's distinct terms, then the alternates' others. */
function countedOneByOne(passages: PartTerms[]): { vocabulary: Map<string, number>; frequency: Map<string, number> } {
  const vocabulary = new Map<string, number>();
  const frequency = new Map<string, number>();
  const bump = (map: Map<string, number>, term: string) => map.set(term, (map.get(term) ?? 0) + 1);
  for (const p of passages) {
    const headingAndAnswer = new Set([...p.question, ...p.answer].filter((t): t is string => t !== null));
    for (const term of headingAndAnswer) bump(vocabulary, term);
    for (const term of headingAndAnswer) bump(frequency, term);
    const others = new Set(p.alternates.flat().filter((t): t is string => t !== null && !headingAndAnswer.has(t)));
    for (const term of others) bump(frequency, term);
  }
  return { vocabulary, frequency };
}

describe('the terms counted at a build', () => {
  it('are the counts, in the order, of counting passage by passage', () => {
    const random = seededRandom(7);
    // Few enough terms that passages share many; a term only an alternate uses; null for stop words.
    const term = (): Term => (random() < 0.15 ? null : `t${Math.floor(random() ** 2 * 9000)}`);
    const list = (max: number): Term[] => Array.from({ length: Math.floor(random() * max) }, term);
    const passages: PartTerms[] = Array.from({ length: 3000 }, () => ({
      question: list(8),
      alternates: Array.from({ length: Math.floor(random() * 4) }, () => list(8)),
      answer: list(60),
    }));
    passages.push({ question: [null], alternates: [['only-asked']], answer: [] });
    const counts = termCounts();
    for (const p of passages) counts.add(p);
    const vocabulary = new Map<string, number>();
    const frequency = new Map<string, number>();
    expect(counts.writeInto(vocabulary, frequency)).toBe(true);
    const expected = countedOneByOne(passages);
    expect([...vocabulary]).toEqual([...expected.vocabulary]);
    expect([...frequency]).toEqual([...expected.frequency]);
    expect(vocabulary.has('only-asked')).toBe(false);
    expect(frequency.get('only-asked')).toBe(1);
  });

  it('say no term came when the passages have none', () => {
    const counts = termCounts();
    counts.add({ question: [null], alternates: [], answer: [] });
    expect(counts.writeInto(new Map(), new Map())).toBe(false);
  });
});
