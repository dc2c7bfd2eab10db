// Reads a message of Persian typed in Latin letters as Persian script, word by word, with the
// knowledge base's own Persian words (the keys and costs of finglish.ts).
import { consonantKey, latinSymbols, persianSymbols, readingCost } from './finglish.js';
import { FUNCTION_WORDS } from './finglish-words.js';
import { normalizeText } from './text.js';
import { splitWords } from './word-split.js';

const PERSIAN_LETTERS = /[\u0600-\u06FF]/;
const LATIN_WORD = /^[a-z0-9']+$/;

/** A Persian word of the knowledge base as the reader knows it. */
interface Reading {
  word: string;
  symbols: string;
  /** How often the knowledge base uses it: the more common of two equally fitting words wins. */
  frequency: number;
}

// Endings glued to a Latin word (hesabamo, notifa, projam, khoonamo), tried when the whole word
// fits no Persian word as well; the stem is read and the ending left off, as the index does.
const ENDINGS = [
  'hamo',
  'haro',
  'haye',
  'hash',
  'ham',
  'ha',
  'amo',
  'emo',
  'imo',
  'amun',
  'amoon',
  'emun',
  'emoon',
  'eshun',
  'eshoon',
  'esh',
  'ash',
  'am',
  'em',
  'at',
  'et',
  'mo',
  'ro',
  'o',
  'a',
  'i',
  'e',
];
const ENDING_COST = 0.25;
// A reading is kept when it costs at most this much, plus this much per symbol of the Latin word:
// a short word must fit closely, a long one may have one consonant off.
const FIT_BASE = 0.45;
const FIT_PER_SYMBOL = 0.06;
// A reading with the same key this close is taken without looking at keys one consonant off.
const CLOSE_FIT = 0.5;

/** English endings tried when an English word of the glossary is typed with one (refunded, tickets). */
const ENGLISH_ENDINGS = ['ing', 'ed', 'es', 's'];

export class LatinReader {
  private readonly byKey = new Map<string, Reading[]>();
  /** Latin words the Persian passages use as they are (API, PDF, SMS). */
  private readonly latinWords = new Set<string>();
  /** Keys of three consonants or more with one consonant removed, for a Latin word one consonant off. */
  private readonly byDeletion = new Map<string, string[]>();
  private readonly deletionsKnown = new Set<string>();
  private readonly cache = new Map<string, string | null>();
  /** How often the knowledge base uses each Persian word. */
  private readonly frequency = new Map<string, number>();

  /**
   * texts: everything the knowledge base says in Persian (passages, thesaurus, questions outside the
   * scope); glossary: English words members mix into Persian, in Latin letters, and the Persian
   * words the knowledge base uses for them (the Persian thesaurus's Latin phrases).
   */
  constructor(
    texts: string[],
    private readonly glossary: Map<string, string> = new Map(),
  ) {
    this.change(texts, 1);
  }

  /** Follows a change of the knowledge base: its Persian texts that came (+1) or went (-1). */
  change(texts: string[], delta: 1 | -1): void {
    const counts = new Map<string, number>();
    for (const text of texts)
      for (const token of splitWords(normalizeText(text))) {
        if (PERSIAN_LETTERS.test(token)) counts.set(token, (counts.get(token) ?? 0) + 1);
        else if (delta > 0 && LATIN_WORD.test(token) && !/^\d+$/.test(token)) this.latinWords.add(token);
      }
    this.cache.clear();
    for (const [word, count] of counts) {
      const known = this.frequency.get(word);
      const frequency = (known ?? 0) + delta * count;
      if (known !== undefined) this.forget(word);
      if (frequency <= 0) {
        this.frequency.delete(word);
        continue;
      }
      this.frequency.set(word, frequency);
      const symbols = persianSymbols(word);
      this.index({ word, symbols, frequency });
      // An adverb ending in ا after a consonant is said with -an (کلا kolan, مثلا masalan).
      if (/[bptsjChXdzrSQfkglmn]A$/.test(symbols)) this.index({ word, symbols: `${symbols}n`, frequency });
    }
  }

  /** Takes a word's readings out of the keys (the deletion variants may stay: they only lead to keys). */
  private forget(word: string): void {
    const symbols = persianSymbols(word);
    for (const variant of [symbols, `${symbols}n`]) {
      const key = consonantKey(variant);
      const list = this.byKey.get(key);
      if (!list) continue;
      const kept = list.filter((reading) => reading.word !== word);
      if (kept.length > 0) this.byKey.set(key, kept);
      else this.byKey.delete(key);
    }
  }

  private index(reading: Reading): void {
    const key = consonantKey(reading.symbols);
    if (key === '') return;
    const list = this.byKey.get(key);
    if (list) {
      list.push(reading);
      return;
    }
    this.byKey.set(key, [reading]);
    if (key.length >= 3 && !this.deletionsKnown.has(key)) {
      this.deletionsKnown.add(key);
      for (const variant of deletions(key)) {
        const keys = this.byDeletion.get(variant);
        if (keys) keys.push(key);
        else this.byDeletion.set(variant, [key]);
      }
    }
  }

  /**
   * The Persian words with the key, or (fuzzy) one consonant off it: one more or one less from three
   * consonants on, one other from four on.
   */
  private candidates(key: string, fuzzy: boolean): Reading[] {
    if (!fuzzy) return this.byKey.get(key) ?? [];
    const keys = new Set(this.byDeletion.get(key) ?? []);
    if (key.length >= 3)
      for (const variant of deletions(key)) {
        keys.add(variant);
        if (key.length >= 4) for (const k of this.byDeletion.get(variant) ?? []) keys.add(k);
      }
    keys.delete(key);
    return [...keys].flatMap((k) => this.byKey.get(k) ?? []);
  }

  /** The reading of a Latin symbol string that fits best, with its cost (the more common word on a tie); null when none has a close key. */
  private closest(symbols: string, fuzzy: boolean): { word: string; cost: number } | null {
    const key = consonantKey(symbols);
    if (key === '') return null;
    let best: { word: string; cost: number; frequency: number } | null = null;
    for (const reading of this.candidates(key, fuzzy)) {
      const cost = readingCost(symbols, reading.symbols);
      if (
        !best ||
        cost < best.cost - 1e-9 ||
        (Math.abs(cost - best.cost) <= 1e-9 && reading.frequency > best.frequency)
      )
        best = { word: reading.word, cost, frequency: reading.frequency };
    }
    return best;
  }

  /**
   * The message with its Latin words read as Persian: the glossary's phrases (up to three words),
   * the function words, Latin words the Persian passages use as they are, then each other word as
   * the Persian word it most likely is (see word); a word nothing fits stays as it was typed.
   */
  read(message: string): string {
    const tokens = normalizeText(message)
      .split(/[^\p{L}\p{N}']+/u)
      .filter(Boolean);
    const out: string[] = [];
    for (let i = 0; i < tokens.length; ) {
      let phrase: string | undefined;
      let length = Math.min(3, tokens.length - i);
      for (; length >= 1 && phrase === undefined; length -= 1)
        phrase = fromGlossary(this.glossary, tokens.slice(i, i + length).join(' '));
      if (phrase !== undefined) {
        out.push(phrase);
        i += length + 1;
        continue;
      }
      const token = tokens[i]!;
      i += 1;
      if (!LATIN_WORD.test(token) || /^\d+$/.test(token)) out.push(token);
      else out.push(FUNCTION_WORDS[token] ?? (this.latinWords.has(token) ? token : (this.word(token) ?? token)));
    }
    return out.join(' ');
  }

  /**
   * The Persian word a Latin word most likely is, or null when none fits well enough: the whole
   * word, or its stem without a glued ending, within FIT_BASE and FIT_PER_SYMBOL.
   */
  word(latin: string): string | null {
    const cached = this.cache.get(latin);
    if (cached !== undefined) return cached;
    const symbols = latinSymbols(latin);
    // The word and its stems with the same key first; a key one consonant off only when none fits closely.
    let choice = this.closest(symbols, false);
    for (const ending of ENDINGS) {
      if (!latin.endsWith(ending) || latin.length - ending.length < 3) continue;
      const stem = this.closest(latinSymbols(latin.slice(0, -ending.length)), false);
      if (stem && (!choice || stem.cost + ENDING_COST < choice.cost))
        choice = { word: stem.word, cost: stem.cost + ENDING_COST };
    }
    if (!choice || choice.cost > CLOSE_FIT) {
      const near = this.closest(symbols, true);
      if (near && (!choice || near.cost < choice.cost)) choice = near;
    }
    const word = choice && choice.cost <= FIT_BASE + FIT_PER_SYMBOL * symbols.length ? choice.word : null;
    if (this.cache.size < 10_000) this.cache.set(latin, word);
    return word;
  }
}

function deletions(key: string): string[] {
  return Array.from(key, (_, i) => key.slice(0, i) + key.slice(i + 1));
}

/** The glossary's Persian for a Latin word, also with an English or a glued Persian ending taken off (refunded, cancelesh). */
function fromGlossary(glossary: Map<string, string>, phrase: string): string | undefined {
  const exact = glossary.get(phrase);
  if (exact !== undefined || phrase.includes(' ')) return exact;
  for (const ending of [...ENGLISH_ENDINGS, ...ENDINGS])
    if (phrase.endsWith(ending) && phrase.length - ending.length >= 4) {
      const found = glossary.get(phrase.slice(0, -ending.length));
      if (found !== undefined) return found;
    }
  return undefined;
}
