// The tokens of a text (src/modules/assistant/word-split.ts) split by a table of code units must be
// exactly what the regular expression it replaced finds, `split(/[^\p{L}\p{N}]+/u)` without the
// empty strings, on any text: Persian and Latin letters, digits of both, joiners and marks, letters
// and emoji outside the Basic Multilingual Plane (surrogate pairs) and lone surrogates. The texts
// are drawn from a seeded generator, the same on every run.
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../harness/random.js';
import { tokenize } from '../../src/modules/assistant/terms.js';
import { splitWords } from '../../src/modules/assistant/word-split.js';

const byExpression = (text: string): string[] => text.split(/[^\p{L}\p{N}]+/u).filter(Boolean);

// Letters, digits and separators of every kind the passages and messages hold.
const PIECES = [
  'a',
  'Z',
  '0',
  '9',
  ' ',
  '.',
  '-',
  '_',
  "'",
  'é',
  'ª',
  'ا',
  'ی',
  'ك',
  '۱',
  '١',
  '²',
  'Ⅰ',
  '\u200c',
  '\u200d',
  '\u064b',
  '\u0640',
  '\u0301',
  '–',
  '…',
  '«',
  '中',
  'अ',
  '\u093f',
  '𝐀',
  '😀',
  '\ud800',
  '\udc00',
  'ﭐ',
  '\ufeff',
  '\t',
  '\n',
  '\u00a0',
  '\u3000',
];

describe('the split of a text into tokens', () => {
  it('finds what the regular expression finds, on 100,000 drawn texts', () => {
    const random = seededRandom(20261127);
    const draw = (n: number) => Math.floor(random() * n);
    const differing: string[] = [];
    for (let i = 0; i < 100_000; i += 1) {
      const length = draw(14);
      // Most texts from the pieces; some of any code units at all.
      const text =
        random() < 0.8
          ? Array.from({ length }, () => PIECES[draw(PIECES.length)]).join('')
          : String.fromCharCode(...Array.from({ length }, () => draw(0x10000)));
      if (JSON.stringify(splitWords(text)) !== JSON.stringify(byExpression(text))) differing.push(text);
    }
    expect(differing).toEqual([]);
  });

  it('keeps a letter outside the Basic Multilingual Plane whole, and drops an emoji and a lone surrogate', () => {
    expect(splitWords('𝐀b😀c\ud800d')).toEqual(['𝐀b', 'c', 'd']);
    expect(splitWords('')).toEqual([]);
    expect(splitWords(' ... ')).toEqual([]);
  });

  it('splits a Persian message with a joiner and punctuation as before', () => {
    // tokenize() normalises first: the ZWNJ becomes a space, Arabic letters their Persian forms.
    expect(tokenize('می‌خواهم پولم را برگردانم، كي؟')).toEqual(['می', 'خواهم', 'پولم', 'را', 'برگردانم', 'کی']);
    expect(tokenize('How do I refund? (payment #42)')).toEqual(['how', 'do', 'i', 'refund', 'payment', '42']);
  });
});
