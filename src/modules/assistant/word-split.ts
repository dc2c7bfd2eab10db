// The tokens of a normalised text: its runs of letters and digits (Unicode's L and N), as
// `text.split(/[^\p{L}\p{N}]+/u).filter(Boolean)` finds them, by one pass over the text's code units
// and a table instead of the regular expression: at a start on a large knowledge base, splitting the
// passages was the build's largest single cost. What counts as a letter or digit is the regular
// expression's own answer, asked once per code unit and kept.

const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;

/** By code unit outside the surrogates: 0 not asked yet, 1 a separator, 2 a letter or digit. */
const KIND = new Uint8Array(0x10000);

function wordUnit(unit: number): boolean {
  let kind = KIND[unit]!;
  if (kind === 0) {
    kind = LETTER_OR_DIGIT.test(String.fromCharCode(unit)) ? 2 : 1;
    KIND[unit] = kind;
  }
  return kind === 2;
}

const isHigh = (unit: number): boolean => unit >= 0xd800 && unit <= 0xdbff;
const isLow = (unit: number): boolean => unit >= 0xdc00 && unit <= 0xdfff;

/**
 * How many code units at `at` make one letter or digit (1, or 2 for one outside the Basic
 * Multilingual Plane written as a surrogate pair); 0 when they make a separator (a lone surrogate
 * is one, as the regular expression reads it).
 */
function letterAt(text: string, at: number): number {
  const unit = text.charCodeAt(at);
  if (unit < 0xd800 || unit > 0xdfff) return wordUnit(unit) ? 1 : 0;
  if (isHigh(unit) && at + 1 < text.length && isLow(text.charCodeAt(at + 1)))
    return LETTER_OR_DIGIT.test(text.slice(at, at + 2)) ? 2 : 0;
  return 0;
}

/** The runs of letters and digits of a text, in order (none of them empty). */
export function splitWords(text: string): string[] {
  const words: string[] = [];
  const end = text.length;
  let at = 0;
  while (at < end) {
    let width = letterAt(text, at);
    if (width === 0) {
      // A separator: one unit, or two for a pair that is not a letter (an emoji).
      const unit = text.charCodeAt(at);
      at += isHigh(unit) && at + 1 < end && isLow(text.charCodeAt(at + 1)) ? 2 : 1;
      continue;
    }
    const start = at;
    do {
      at += width;
      width = at < end ? letterAt(text, at) : 0;
    } while (width > 0);
    words.push(text.slice(start, at));
  }
  return words;
}
