// Text helpers of the assistant: Persian normalisation for search, the language of a message,
// and the conversation title.
import type { Locale } from '../../core/i18n.js';

const ARABIC_TO_PERSIAN: Record<string, string> = {
  ي: 'ی',
  ى: 'ی',
  ك: 'ک',
  ة: 'ه',
  ۀ: 'ه',
  أ: 'ا',
  إ: 'ا',
  ٱ: 'ا',
  ؤ: 'و',
};
// Persian ۰-۹ (U+06F0..) and Arabic-Indic ٠-٩ (U+0660..) digits become ASCII.
const PERSIAN_DIGIT_BASE = 0x06f0;
const ARABIC_DIGIT_BASE = 0x0660;
// Harakat, tanwin, shadda, sukun, superscript alef and tatweel carry no meaning for search.
const DIACRITICS = /[\u064B-\u065F\u0670\u0640]/g;
// Zero-width non-joiner and joiner, and the other invisible format characters.
const INVISIBLE = /[\u200B-\u200F\u202A-\u202E\u2066-\u2069\uFEFF]/g;

// The characters normalizeText maps: both kinds of digits and the Arabic letters above.
const MAPPED = /[\u06F0-\u06F9\u0660-\u0669\u064A\u0649\u0643\u0629\u06C0\u0623\u0625\u0671\u0624]/g;
// Printable ASCII, tabs and line breaks need only lower-casing: nothing else below changes them.
const NOT_ASCII = /[^ -~\t\n\r]/;

/** True when the text holds only printable ASCII, tabs and line breaks. */
export function isPlainAscii(text: string): boolean {
  return !NOT_ASCII.test(text);
}

// Every character normalizeText changes, in one pass: the mapped ones, the diacritics (dropped), the
// ZWNJ (a space) and the other invisible characters (dropped).
const CHANGED = new RegExp(`${MAPPED.source}|${DIACRITICS.source}|${INVISIBLE.source}`, 'g');

function changed(ch: string): string {
  if (ch === '\u200C') return ' ';
  if (DIACRITICS_ONE.test(ch) || INVISIBLE_ONE.test(ch)) return '';
  return mapped(ch);
}
const DIACRITICS_ONE = new RegExp(DIACRITICS.source);
const INVISIBLE_ONE = new RegExp(INVISIBLE.source);

function mapped(ch: string): string {
  const code = ch.charCodeAt(0);
  if (code >= PERSIAN_DIGIT_BASE && code <= PERSIAN_DIGIT_BASE + 9) return String(code - PERSIAN_DIGIT_BASE);
  if (code >= ARABIC_DIGIT_BASE && code <= ARABIC_DIGIT_BASE + 9) return String(code - ARABIC_DIGIT_BASE);
  return ARABIC_TO_PERSIAN[ch] ?? ch;
}

/** One spelling for the same Persian word, so an index and a query meet. */
export function normalizeText(input: string): string {
  if (isPlainAscii(input)) return input.toLowerCase();
  // Persian writes the parts of one word with a ZWNJ, a space or nothing (سرمایه‌گذاری, سرمایه گذاری):
  // a space makes the first two meet, and the parts become separate search terms.
  return input.normalize('NFC').replace(CHANGED, changed).toLowerCase();
}

const PERSIAN_LETTERS = /[\u0600-\u06FF\uFB50-\uFDFF\uFE70-\uFEFF]/g;
const LATIN_LETTERS = /[A-Za-z]/g;

/** Persian when the message has more Persian/Arabic letters than Latin ones. */
export function messageLanguage(message: string): Locale {
  const persian = message.match(PERSIAN_LETTERS)?.length ?? 0;
  const latin = message.match(LATIN_LETTERS)?.length ?? 0;
  return persian > 0 && persian >= latin ? 'fa' : 'en';
}

export const TITLE_MAX = 50;
const ELLIPSIS = '…';

/**
 * The conversation's title from its first message: whitespace collapsed, at most 50 characters
 * (counted as code points, so an emoji is never split). A longer message is cut at the last word
 * boundary that leaves room for "…" inside the 50; a first word longer than that is cut hard.
 */
export function conversationTitle(message: string): string {
  const chars = Array.from(message.replace(/\s+/g, ' ').trim());
  if (chars.length <= TITLE_MAX) return chars.join('');
  const room = chars.slice(0, TITLE_MAX - 1);
  // A cut right before a space still ends on a whole word.
  const cutAtBoundary = chars[TITLE_MAX - 1] === ' ' ? room.length : room.lastIndexOf(' ');
  const kept = cutAtBoundary > 0 ? room.slice(0, cutAtBoundary) : room;
  const text = kept.join('').trimEnd();
  return (text.replace(/[\s.,;:!?،؛]+$/u, '') || text) + ELLIPSIS;
}
