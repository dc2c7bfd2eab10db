// A passage's parts as the index reads them (src/modules/assistant/passage-tokens.ts): the length
// of a field is the number of its distinct tokens, counted by token number with a stamp; it must be
// what a set of the tokens holds, also for tokens left without a number, and each token's term must
// be searchTerm's.
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../harness/random.js';
import { distinctTokens, fields, tokensOf } from '../../src/modules/assistant/passage-tokens.js';
import { searchTerm, tokenNumber } from '../../src/modules/assistant/terms.js';

describe("a passage's tokens", () => {
  it('count the distinct tokens of its fields as a set of them would', () => {
    const random = seededRandom(11);
    const word = () =>
      ['refund', 'refunds', 'the', 'پول', 'پولم', 'wallet', 'token', 'كارت'][Math.floor(random() * 8)]!;
    const text = (n: number) => Array.from({ length: n }, word).join(' ');
    for (let i = 0; i < 500; i += 1) {
      const passage = {
        id: `p${i}`,
        lang: 'en' as const,
        topic: 'x',
        question: text(1 + Math.floor(random() * 5)),
        alternates: Array.from({ length: Math.floor(random() * 3) }, () => text(Math.floor(random() * 6))),
        answer: text(Math.floor(random() * 30)),
      };
      const tokens = tokensOf(passage);
      const [questions, answer] = fields(tokens);
      const all = (...parts: { tokens: string[] }[]) => new Set(parts.flatMap((p) => p.tokens)).size;
      expect(questions.length).toBe(all(tokens.question, ...tokens.alternates));
      expect(answer.length).toBe(all(tokens.answer));
      expect(answer.terms).toEqual(tokens.answer.tokens.map(searchTerm));
      expect(questions.terms).toEqual([tokens.question, ...tokens.alternates].flatMap((p) => p.tokens.map(searchTerm)));
    }
  });

  it('count tokens without a number (the numbers ran out) by their text, beside the numbered ones', () => {
    const a = tokenNumber('alpha');
    const b = tokenNumber('beta');
    const parts = [
      { tokens: ['alpha', 'gamma', 'beta', 'gamma'], numbers: [a, -1, b, -1] },
      { tokens: ['alpha', 'delta'], numbers: [a, -1] },
    ];
    expect(distinctTokens(parts)).toBe(4);
    // The stamp of one count does not leak into the next.
    expect(distinctTokens([{ tokens: ['alpha'], numbers: [a] }])).toBe(1);
  });
});
