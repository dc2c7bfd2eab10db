// Words as the knowledge base's index sees them: tokens of normalised text, stop words dropped,
// a light English stemmer, and glued Persian and English endings stripped back to an indexed stem.
import type { Locale } from '../../core/i18n.js';
import { normalizeText } from './text.js';
import { splitWords } from './word-split.js';

// Endings tried, longest first, when a word of the query is not in the index (پولم -> پول).
export const SUFFIXES: Record<Locale, string[]> = {
  en: ['ments', 'ment', 'ness', 'ally', 'ly', 'er', 'e'],
  fa: [
    'هامو',
    'هایم',
    'هایت',
    'هایش',
    'های',
    'ها',
    'ایی',
    'امو',
    'مون',
    'تون',
    'شون',
    'مان',
    'تان',
    'شان',
    'ام',
    'ات',
    'اش',
    'مو',
    'تو',
    'شو',
    'یم',
    'ید',
    'ند',
    'ای',
    'م',
    'ت',
    'ش',
    'ی',
    'ه',
    'ا',
    'و',
  ],
};

// Words that say nothing about the topic; they would only add noise to BM25.
const STOP_WORDS = new Set(
  (
    'a an the i me my mine we our us you your it its is are was were be been being am do does did doing done can could should would will shall may might must ' +
    'to of in on at for with from by about as into onto and or but if then so than that this these those there here what which who whom whose how ' +
    'please hi hello hey thanks thank just also any some there get got have has had not no yes want need like know tell explain help me ' +
    // Informal English: contractions typed without the apostrophe, and their halves when typed with it.
    'pls plz u ur im ive id dont doesnt didnt cant cannot wont isnt arent wasnt havent hasnt whats hows wheres whos theres thats its lets s t d m ll re ve ' +
    'now still really something anything thing ok okay guys ' +
    'از به با در را که و یا این آن اون من ما شما تو او است هست هستند بود باشد می نمی ها های هم برای چه چی چطور چگونه چطوری کنم کنیم کرد کردم شود شد میشود ' +
    'یک تا اگر باید ام ای رو آیا خود خودم دارم داره دارد دارید داریم را ی بر پس اما ولی هر همه لطفا سلام ممنون بگید بگویید میخواهم خواهم ' +
    // Spoken forms and light verbs that every passage shares.
    'تو یه چیه چیا چیست اینو اونو بعدش دیگه الان خب مگه شود شوم شوند کند کنند کنید دهد دهم دهند خواهد خواهند آید ' +
    // Spoken question words with است glued on, and the light verbs of requests (بگو, بده, کن).
    'کیه چنده چقدره کجاست کجاس چطوره چجوریه کدومه کدوم کدام بگو بگید بگین بگی بده بدید بدین کن بکن بکنم کنین لطفا مرسی ممنونم ' +
    // Spoken if and in-it, which every kind of question uses.
    'اگه توش'
  )
    .split(/\s+/)
    .map((w) => normalizeText(w)),
);

/**
 * The indexed word a query word is made of with an ending glued on: the longest ending whose
 * removal leaves an indexed word. Spoken Persian drops the final ه of a noun before an ending
 * (پروژه + م → پروژم), so that ه is tried back on too.
 */
export function indexedStem(
  term: string,
  suffixes: string[],
  vocabulary: ReadonlySet<string> | ReadonlyMap<string, unknown>,
  lang: Locale,
): string | null {
  for (const suffix of suffixes) {
    if (term.length - suffix.length < 2 || !term.endsWith(suffix)) continue;
    const stem = term.slice(0, -suffix.length);
    if (vocabulary.has(stem)) return stem;
    if (lang === 'fa' && vocabulary.has(`${stem}ه`)) return `${stem}ه`;
  }
  return null;
}

/** A light English stemmer: enough for refund/refunds/refunded to meet. */
function stemEnglish(word: string): string {
  if (!/^[a-z]+$/.test(word) || word.length <= 3) return word;
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (word.endsWith('ing') && word.length > 5) return word.slice(0, -3);
  if (word.endsWith('ed') && word.length > 4) return word.slice(0, -2);
  if (/(ches|shes|sses|xes)$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

export function tokenize(text: string): string[] {
  return splitWords(normalizeText(text));
}

// searchTerm's answers, remembered: the same few thousand words come again and again. Each token
// remembered has a number, the same for the life of the process, so an index build can tell a
// passage's distinct tokens apart by number instead of putting them in a set.
const TOKEN_NUMBERS = new Map<string, number>();
const TERM_OF_TOKEN: Array<string | null> = [];
const REMEMBERED_TERMS = 100_000;

function termOf(token: string): string | null {
  const stem = STOP_WORDS.has(token) ? null : stemEnglish(token);
  return stem === null || STOP_WORDS.has(stem) ? null : stem;
}

/** A token's number (see above); -1 once as many tokens as are remembered have one. */
export function tokenNumber(token: string): number {
  const known = TOKEN_NUMBERS.get(token);
  if (known !== undefined) return known;
  if (TERM_OF_TOKEN.length >= REMEMBERED_TERMS) return -1;
  const number = TERM_OF_TOKEN.length;
  TOKEN_NUMBERS.set(token, number);
  TERM_OF_TOKEN.push(termOf(token));
  return number;
}

/** The search term of a numbered token (tokenNumber's number, not -1). */
export const termOfNumber = (number: number): string | null => TERM_OF_TOKEN[number]!;

/** How many tokens have a number: every number is below it. */
export const numberedTokens = (): number => TERM_OF_TOKEN.length;

/** A token's search term: its stem, or null for a stop word. */
export function searchTerm(token: string): string | null {
  const number = tokenNumber(token);
  return number >= 0 ? TERM_OF_TOKEN[number]! : termOf(token);
}

/** The distinct search terms of token lists, in order of first use, leaving out those in `besides`. */
export function termSet(lists: readonly (readonly string[])[], besides?: ReadonlySet<string>): Set<string> {
  const terms = new Set<string>();
  for (const tokens of lists)
    for (const token of tokens) {
      const term = searchTerm(token);
      if (term !== null && !besides?.has(term)) terms.add(term);
    }
  return terms;
}

/** The distinct search terms of tokens, in order of first use. */
export function tokenTerms(tokens: readonly string[]): string[] {
  return [...termSet([tokens])];
}

/** The distinct search terms of a query, as the index sees them. */
export function queryTerms(text: string): string[] {
  return tokenTerms(tokenize(text));
}

/**
 * Persian writes the parts of a word with a ZWNJ, a space or nothing (سرمایه‌گذاری), and text read
 * from a PDF loses the ZWNJ: a page may hold the glued word where a message has its parts. Two or
 * three tokens in a row whose glued form a passage uses: that form, as a term searched besides.
 */
export function gluedTerms(tokens: readonly string[], vocabulary: ReadonlyMap<string, number>): string[] {
  const found: string[] = [];
  for (let i = 0; i + 1 < tokens.length; i += 1) {
    let glued = tokens[i]!;
    for (let j = i + 1; j < Math.min(tokens.length, i + 3); j += 1) {
      glued += tokens[j]!;
      const term = searchTerm(glued);
      if (term !== null && vocabulary.has(term)) found.push(term);
    }
  }
  return found;
}
