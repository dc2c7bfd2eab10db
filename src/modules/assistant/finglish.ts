// Persian typed in Latin letters ("Finglish": "password ro yadam rafte", "pool kei varis mishe").
// Nobody spells it one way (mikham, mikhaam, mkham; 7esab for hesab; proje, projeh), so instead of
// guessing one Persian spelling, both sides are brought to one key: the word's consonants, in
// classes that Latin spellings share (kh, gh/q, sh, ch; 7 = h, 3 and 2 = the letters ع and ء,
// written or not), without vowels, v or y, which Persian writes only sometimes. Each Latin word is
// then read as the Persian word of the knowledge base with the same key (or one consonant off)
// whose letters its vowels fit best (finglish-reader.ts), and the message goes on as Persian.

const PERSIAN_LETTERS = /[\u0600-\u06FF]/;

// Persian letters as symbols: consonant classes (lower case and C/S/X/Q), and the letters that are
// vowels or consonants by turns: A (ا, آ), I (ا starting a word: any vowel), W (و), Y (ی),
// H (a final ه: a vowel), E (ع).
const PERSIAN: Record<string, string> = {
  ا: 'A',
  آ: 'A',
  ب: 'b',
  پ: 'p',
  ت: 't',
  ط: 't',
  ث: 's',
  س: 's',
  ص: 's',
  ج: 'j',
  چ: 'C',
  ح: 'h',
  خ: 'X',
  د: 'd',
  ذ: 'z',
  ز: 'z',
  ض: 'z',
  ظ: 'z',
  ر: 'r',
  ژ: 'j',
  ش: 'S',
  ع: 'E',
  غ: 'Q',
  ق: 'Q',
  ف: 'f',
  ک: 'k',
  گ: 'g',
  ل: 'l',
  م: 'm',
  ن: 'n',
  و: 'W',
  ه: 'H',
  ی: 'Y',
};

/** A Persian word as symbols (see PERSIAN); Latin letters inside it are read as Latin. */
export function persianSymbols(word: string): string {
  if (!PERSIAN_LETTERS.test(word)) return latinSymbols(word);
  let out = '';
  const letters = Array.from(word);
  for (const [i, ch] of letters.entries()) {
    if (ch === 'ا' && i === 0) out += 'I';
    // ه is h, except at the end of a word after anything but ا or و, where it writes a vowel (پروژه, سرمایه, but ماه).
    else if (ch === 'ه') out += i === letters.length - 1 && i > 0 && !'او'.includes(letters[i - 1]!) ? 'H' : 'h';
    else out += PERSIAN[ch] ?? '';
  }
  // و between خ and ا is silent (خواهم, خواب); a consonant written twice (یادداشت) is heard once.
  return out.replace(/XWA/g, 'XA').replace(/([bptsjChXdzrSQfkglmn])\1+/g, '$1');
}

/**
 * A Latin word as the same symbols: digraphs folded (kh X, gh and q Q, sh S, ch C, zh j), c and ck
 * as k, x as ks, w as v, the digits that stand for letters (7 h, 3 E, 2 nothing, 8 Q, 5 X), long
 * vowels spelt double (oo, ee, aa) as one, doubled consonants once (Persian writes them once), and
 * a final eh (tazeh) as e, as Persian's final ه after a consonant is a vowel. Vowels stay a, e, i, o, u.
 */
export function latinSymbols(word: string): string {
  if (/^\d+$/.test(word)) return word;
  return word
    .toLowerCase()
    .replace(/'/g, '')
    .replace(/kh/g, 'X')
    .replace(/gh/g, 'Q')
    .replace(/sh/g, 'S')
    .replace(/ch/g, 'C')
    .replace(/zh/g, 'j')
    .replace(/ph/g, 'f')
    .replace(/th/g, 't')
    .replace(/ck/g, 'k')
    .replace(/q/g, 'Q')
    .replace(/x/g, 'ks')
    .replace(/c/g, 'k')
    .replace(/w/g, 'v')
    .replace(/7/g, 'h')
    .replace(/3/g, 'E')
    .replace(/8/g, 'Q')
    .replace(/5/g, 'X')
    .replace(/[0-9]/g, '')
    .replace(/oo/g, 'u')
    .replace(/ee/g, 'i')
    .replace(/(.)\1+/g, '$1')
    .replace(/eh$/, 'e');
}

const CONSONANTS = /[bptsjChXdzrSQfkglmn]/;

/** The key both spellings share: the consonants only, s and z as one class, doubled ones once. */
export function consonantKey(symbols: string): string {
  let key = '';
  for (const ch of symbols) {
    if (!CONSONANTS.test(ch)) continue;
    const c = ch === 'z' ? 's' : ch;
    if (!key.endsWith(c)) key += c;
  }
  return key;
}

const SHORT_VOWELS = new Set(['a', 'e', 'o']);
const VOWELS = new Set(['a', 'e', 'i', 'o', 'u']);
const NEAR: Record<string, string> = { s: 'z', z: 's', Q: 'g', g: 'Q', X: 'h', h: 'X' };

/** What it costs to read a Latin symbol as a Persian one. */
function substitution(latin: string, persian: string): number {
  if (latin === persian) return 0;
  switch (persian) {
    case 'A':
      return latin === 'a' ? 0 : latin === 'o' || latin === 'u' ? 0.3 : latin === 'e' ? 0.6 : latin === 'i' ? 0.8 : 2;
    case 'I':
      return VOWELS.has(latin) ? 0 : 2;
    case 'W':
      return latin === 'v' || latin === 'o' || latin === 'u' ? 0 : latin === 'a' || latin === 'e' ? 0.7 : 2;
    case 'Y':
      return latin === 'y' || latin === 'i' || latin === 'e' ? 0 : latin === 'a' ? 0.7 : 2;
    case 'H':
      return latin === 'e' || latin === 'a' ? 0 : 2;
    case 'E':
      return latin === 'a' || latin === 'e' || latin === 'o' ? 0 : latin === 'i' || latin === 'u' ? 0.5 : 2;
    default:
      if (VOWELS.has(latin) || latin === 'y' || latin === 'v' || latin === 'E') return 2;
      return NEAR[latin] === persian ? 0.7 : 1;
  }
}

/** A Latin symbol with nothing under it in the Persian word: short vowels are not written. */
function latinOnly(latin: string): number {
  if (SHORT_VOWELS.has(latin)) return 0.15;
  if (latin === 'E') return 0.1;
  if (latin === 'y') return 0.3;
  if (latin === 'i' || latin === 'u' || latin === 'v') return 0.6;
  return 1;
}

/** A Persian symbol the Latin spelling left out: a vowel letter often is (mkham, chqdr), a consonant rarely. */
function persianOnly(persian: string): number {
  if (persian === 'I' || persian === 'E') return 0.1;
  if (persian === 'H') return 0.15;
  if (persian === 'A' || persian === 'W' || persian === 'Y') return 0.3;
  return 1;
}

/** How badly a Latin spelling fits a Persian word: the cheapest alignment of their symbols. */
export function readingCost(latin: string, persian: string): number {
  const l = Array.from(latin);
  const p = Array.from(persian);
  let previous = new Float64Array(p.length + 1);
  for (let j = 1; j <= p.length; j += 1) previous[j] = previous[j - 1]! + persianOnly(p[j - 1]!);
  for (let i = 1; i <= l.length; i += 1) {
    const row = new Float64Array(p.length + 1);
    row[0] = previous[0]! + latinOnly(l[i - 1]!);
    for (let j = 1; j <= p.length; j += 1) {
      row[j] = Math.min(
        previous[j - 1]! + substitution(l[i - 1]!, p[j - 1]!),
        previous[j]! + latinOnly(l[i - 1]!),
        row[j - 1]! + persianOnly(p[j - 1]!),
      );
    }
    previous = row;
  }
  return previous[p.length]!;
}
