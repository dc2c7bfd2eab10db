// Headings in a PDF told by their type size (src/modules/kb-files/pdf-headings.ts), on pdf.js-shaped
// text items: a document in one size reads as one section per page, as before; a short line set
// clearly larger than the body starts a section that goes on across pages; a heading set on two
// lines is one; large prose, text in the body's size and lines without letters are not headings.
import { describe, expect, it } from 'vitest';
import { bodySize, linesOf, type PdfTextItem, pdfSections } from '../../src/modules/kb-files/pdf-headings.js';

/** A page's items: each line one run at its size ("#" before a line: 18, else 11), ending its line. */
const page = (...lines: string[]): PdfTextItem[] =>
  lines.map((line) =>
    line.startsWith('# ') ? { str: line.slice(2), height: 18, hasEOL: true } : { str: line, height: 11, hasEOL: true },
  );
const read = (...pages: PdfTextItem[][]) => pdfSections(pages.map(linesOf));

describe('PDF headings by type size', () => {
  it('reads a document in one size as one section per page, its lines joined', () => {
    expect(read(page('First line.', 'Second line.'), page('Other page.'))).toEqual([
      { page: 1, heading: null, text: 'First line.\nSecond line.' },
      { page: 2, heading: null, text: 'Other page.' },
    ]);
  });

  it('puts the text after a larger line under it, across pages, until the next heading', () => {
    expect(
      read(page('Intro text.', '# Refunds', 'Five days.'), page('Or longer.', '# Closing', 'Write to us.')),
    ).toEqual([
      { page: 1, heading: null, text: 'Intro text.' },
      { page: 1, heading: 'Refunds', text: 'Five days.' },
      { page: 2, heading: 'Refunds', text: 'Or longer.' },
      { page: 2, heading: 'Closing', text: 'Write to us.' },
    ]);
  });

  it('joins a heading set on two lines, and keeps a heading with no text under it for the next page', () => {
    expect(read(page('The body of the first page.', '# How long does', '# a refund take'), page('Five days.'))).toEqual(
      [
        { page: 1, heading: null, text: 'The body of the first page.' },
        { page: 2, heading: 'How long does a refund take', text: 'Five days.' },
      ],
    );
  });

  it('does not take long large lines, digits alone, or a document mostly in large type as headings', () => {
    const long = `# ${'word '.repeat(50)}`;
    expect(read(page(long, 'Body.'))[0]!.heading).toBeNull();
    expect(read(page('# 12', 'Body.'))[0]!.heading).toBeNull();
    expect(read(page('# One.', '# Two.', '# Three.', 'Small note.'))).toEqual([
      { page: 1, heading: null, text: 'One.\nTwo.\nThree.\nSmall note.' },
    ]);
  });

  it('reads sizes from the text matrix when a run has no height, and the body as the size of most characters', () => {
    const lines = linesOf([
      { str: 'Big', transform: [20, 0, 0, 20, 0, 0], hasEOL: true },
      { str: 'small text here', transform: [10, 0, 0, 10, 0, 0], hasEOL: false },
      { str: ' more', height: 10, hasEOL: true },
    ]);
    expect(lines).toEqual([
      { text: 'Big', size: 20 },
      { text: 'small text here more', size: 10 },
    ]);
    expect(bodySize([lines])).toBe(10);
    expect(pdfSections([lines])).toEqual([{ page: 1, heading: 'Big', text: 'small text here more' }]);
  });
});
