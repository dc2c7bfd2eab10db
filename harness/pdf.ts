// A small PDF writer for the benchmark's documents, the tests' and the evaluation's: one page per
// text, headings set larger than the body, its lines set in a font whose character codes are the
// text's own UTF-16 code units (a Type 0 font, Identity-H) with a ToUnicode map, so any Latin or
// Persian text is extracted back as it was written (no glyphs are embedded: the file is for
// reading, as the service reads it, not for printing). Persian lines are written in visual order
// (right to left reversed), as PDF producers store them, and PDF readers put them back in reading
// order.

const LINE_CHARS = 80;

/** The body's type size and a heading's (points). */
const BODY_SIZE = 11;
const HEADING_SIZE = 16;

/**
 * The text of a page cut into lines of at most LINE_CHARS characters, between words; a paragraph
 * that starts with "# " is a heading, set larger.
 */
function lines(text: string): Array<{ line: string; heading: boolean }> {
  const out: Array<{ line: string; heading: boolean }> = [];
  for (const paragraph of text.split(/\n\s*\n/)) {
    const heading = paragraph.startsWith('# ');
    let line = '';
    for (const word of (heading ? paragraph.slice(2) : paragraph).split(/\s+/).filter(Boolean)) {
      if (line !== '' && line.length + 1 + word.length > LINE_CHARS) {
        out.push({ line, heading });
        line = word;
      } else line = line === '' ? word : `${line} ${word}`;
    }
    if (line !== '') out.push({ line, heading });
  }
  return out;
}

const RTL = /[\u0600-\u06FF]/;
/** A run of left-to-right text inside a right-to-left line: Latin words and digits with what joins them. */
const LTR_RUN = /[A-Za-z0-9](?:[A-Za-z0-9 .,:;_<>/@'"-]*[A-Za-z0-9>])?/g;

/**
 * A line in visual order: a right-to-left line's runs from right to left, its own letters reversed
 * and its Latin runs left as they read (as PDF producers lay out mixed lines).
 */
function visual(line: string): string {
  if (!RTL.test(line)) return line;
  const runs: string[] = [];
  let at = 0;
  for (const match of line.matchAll(LTR_RUN)) {
    if (match.index > at) runs.push([...line.slice(at, match.index)].reverse().join(''));
    runs.push(match[0]);
    at = match.index + match[0].length;
  }
  if (at < line.length) runs.push([...line.slice(at)].reverse().join(''));
  return runs.reverse().join('');
}

/** A line as a PDF hex string of its code units, in visual order. */
function shown(line: string): string {
  const units = visual(line);
  let hex = '';
  for (let i = 0; i < units.length; i += 1) hex += units.charCodeAt(i).toString(16).padStart(4, '0');
  return `<${hex}>`;
}

// Code units map to themselves: ASCII, Latin-1, Arabic script and the zero-width non-joiner.
const TO_UNICODE = [
  '/CIDInit /ProcSet findresource begin',
  '12 dict begin',
  'begincmap',
  '/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def',
  '/CMapName /Bench-UCS def',
  '/CMapType 2 def',
  '1 begincodespacerange',
  '<0000> <FFFF>',
  'endcodespacerange',
  '4 beginbfrange',
  '<0020> <007E> <0020>',
  '<00A0> <00FF> <00A0>',
  '<0600> <06FF> <0600>',
  '<200C> <200D> <200C>',
  'endbfrange',
  'endcmap',
  'CMapName currentdict /CMap defineresource pop',
  'end',
  'end',
].join('\n');

const stream = (dict: string, data: string) =>
  `<< ${dict} /Length ${Buffer.byteLength(data, 'latin1')} >>\nstream\n${data}\nendstream`;

/** A PDF of one page per text (paragraphs separated by a blank line; "# " starts a heading). */
export function pdfOfPages(pages: string[]): Buffer {
  // 1 catalogue, 2 page tree, 3 font, 4 descendant font, 5 descriptor, 6 ToUnicode, then page and content pairs.
  const objects: string[] = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${pages.map((_, i) => `${7 + i * 2} 0 R`).join(' ')}] /Count ${pages.length} >>`,
    '<< /Type /Font /Subtype /Type0 /BaseFont /BenchSans /Encoding /Identity-H /DescendantFonts [4 0 R] /ToUnicode 6 0 R >>',
    '<< /Type /Font /Subtype /CIDFontType2 /BaseFont /BenchSans /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor 5 0 R /DW 500 /CIDToGIDMap /Identity >>',
    '<< /Type /FontDescriptor /FontName /BenchSans /Flags 32 /FontBBox [0 -200 1000 800] /ItalicAngle 0 /Ascent 800 /Descent -200 /CapHeight 700 /StemV 80 >>',
    stream('', TO_UNICODE),
  ];
  for (const [i, text] of pages.entries()) {
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${8 + i * 2} 0 R >>`,
    );
    const content = `BT /F1 ${BODY_SIZE} Tf 56 740 Td 14 TL\n${lines(text)
      .map(({ line, heading }) =>
        heading ? `/F1 ${HEADING_SIZE} Tf ${shown(line)} Tj T* /F1 ${BODY_SIZE} Tf` : `${shown(line)} Tj T*`,
      )
      .join('\n')}\nET`;
    objects.push(stream('', content));
  }
  const parts = ['%PDF-1.7\n'];
  const offsets: number[] = [];
  let length = parts[0]!.length;
  for (const [i, body] of objects.entries()) {
    offsets.push(length);
    const object = `${i + 1} 0 obj\n${body}\nendobj\n`;
    parts.push(object);
    length += Buffer.byteLength(object, 'latin1');
  }
  parts.push(`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`);
  for (const offset of offsets) parts.push(`${String(offset).padStart(10, '0')} 00000 n \n`);
  parts.push(`trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`);
  return Buffer.from(parts.join(''), 'latin1');
}
