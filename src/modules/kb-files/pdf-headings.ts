// Headings in a PDF, told by their type size. pdf.js gives every run of text the size it is set in
// (the height of its text matrix); a document's body is the size most of its characters are set
// in. A short line set clearly larger than the body is a heading, and the text after it, on its
// page and on the pages after, until the next heading, is a section under it: its passages cite
// the page as before and carry the heading, which the assistant matches as a way of asking them
// (document-index.ts). A document set in one size has no headings and reads as it did: one section
// per page. Linear in the text: every run is looked at once.
import type { Section } from './passages.js';

/** A line of a page: its text and the size most of its characters are set in. */
export interface PdfLine {
  text: string;
  size: number;
}

/** The part of a pdf.js text item this reads (TextItem; marked-content items have no `str`). */
export interface PdfTextItem {
  str?: string;
  height?: number;
  transform?: number[];
  hasEOL?: boolean;
}

/** A heading is set at least this many times larger than the body. */
export const HEADING_RATIO = 1.15;
/** A line longer than this is prose in large type (a cover, a pull quote), not a heading. */
export const HEADING_CHARS = 200;

const LETTER = /\p{L}/u;

/** A run's size: its height, else the vertical scale of its text matrix. */
function sizeOf(item: PdfTextItem): number {
  const height = item.height ?? 0;
  if (height > 0) return height;
  const [, , c = 0, d = 0] = item.transform ?? [];
  return Math.hypot(c, d);
}

/** Adds `chars` characters at `size` to a tally (sizes rounded to a tenth of a point). */
function tally(counts: Map<number, number>, size: number, chars: number): void {
  const key = Math.round(size * 10) / 10;
  counts.set(key, (counts.get(key) ?? 0) + chars);
}

/** The size with the most characters (0 for no text). */
function commonest(counts: Map<number, number>): number {
  let best = 0;
  let most = 0;
  for (const [size, chars] of counts)
    if (chars > most || (chars === most && size < best)) {
      best = size;
      most = chars;
    }
  return best;
}

/** A page's lines from its text items: a line ends where pdf.js marks an end of line. */
export function linesOf(items: readonly PdfTextItem[]): PdfLine[] {
  const lines: PdfLine[] = [];
  let text = '';
  let sizes = new Map<number, number>();
  const end = () => {
    lines.push({ text, size: commonest(sizes) });
    text = '';
    sizes = new Map();
  };
  for (const item of items) {
    const str = item.str ?? '';
    text += str;
    const chars = str.trim().length;
    if (chars > 0) tally(sizes, sizeOf(item), chars);
    if (item.hasEOL) end();
  }
  if (text !== '') end();
  return lines;
}

/** The body's size: the one most of the document's characters are set in. */
export function bodySize(pages: readonly PdfLine[][]): number {
  const counts = new Map<number, number>();
  for (const lines of pages) for (const line of lines) tally(counts, line.size, line.text.trim().length);
  return commonest(counts);
}

/**
 * The document's sections: per page, the text before its first heading (under the heading carried
 * from the pages before, if any), then each heading's text. Lines of headings that follow one
 * another with no text between are one heading (a heading set on two lines).
 */
export function pdfSections(pages: readonly PdfLine[][]): Section[] {
  const body = bodySize(pages);
  const isHeading = (line: PdfLine) => {
    const text = line.text.trim();
    return body > 0 && line.size >= body * HEADING_RATIO && text.length <= HEADING_CHARS && LETTER.test(text);
  };
  const sections: Section[] = [];
  let heading: string | null = null;
  pages.forEach((lines, i) => {
    const page = i + 1;
    let text: string[] = [];
    // Whether a line of text has been read since the last section was cut.
    let hasText = false;
    // Whether the last line read was a heading with no text under it yet.
    let open = false;
    const cut = () => {
      if (hasText) sections.push({ page, heading, text: text.join('\n') });
      text = [];
      hasText = false;
    };
    for (const line of lines) {
      if (!isHeading(line)) {
        text.push(line.text);
        if (line.text.trim() !== '') {
          hasText = true;
          open = false;
        }
        continue;
      }
      if (open) {
        heading = `${heading} ${line.text.trim()}`;
        continue;
      }
      cut();
      heading = line.text.trim();
      open = true;
    }
    cut();
  });
  return sections;
}
