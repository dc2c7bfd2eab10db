// The text of an uploaded document, read in the extraction worker (extract-worker.ts): PDF with
// Mozilla's pdf.js (the legacy build, which runs on Node without a browser; text content only,
// nothing is rendered, no font is loaded, and its eval-based font compiler is off; headings are told
// by their type size, pdf-headings.ts), DOCX with mammoth's document tree (never its HTML; headings
// told by their paragraph style, docx-sections.ts), plain text and Markdown decoded by
// text-decoding.ts.
// Markup in the text (HTML tags, comments) is dropped: the passages are plain text wherever they go.
import { docxParagraphs, styledSections } from './docx-sections.js';
import type { Section } from './passages.js';
import { linesOf, type PdfLine, type PdfTextItem, pdfSections } from './pdf-headings.js';
import { decodeText } from './text-decoding.js';
import { EXTRACTION_LIMITS, UnreadableDocument, type DocumentKind } from './limits.js';
import { checkZip } from './zip-check.js';

export interface Extracted {
  pageCount: number | null;
  sections: Section[];
}

const MARKUP = /<!--[\s\S]*?-->|<\/?[a-z][^>]*>/gi;

/** The text without markup, control characters or runs of spaces; line breaks kept. */
export function cleanText(text: string): string {
  return (
    text
      .normalize('NFC')
      .replace(MARKUP, ' ')
      // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this removes
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, ' ')
      .replace(/\r\n?/g, '\n')
      .replace(/[ \t\u00a0]+/g, ' ')
      .replace(/ *\n */g, '\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim()
  );
}

export async function extract(kind: DocumentKind, bytes: Uint8Array): Promise<Extracted> {
  const extracted =
    kind === 'pdf'
      ? await extractPdf(bytes)
      : kind === 'docx'
        ? await extractDocx(bytes)
        : {
            pageCount: null,
            sections: kind === 'md' ? markdownSections(decodeText(bytes)) : plainSections(decodeText(bytes)),
          };
  let total = 0;
  const sections: Section[] = [];
  for (const section of extracted.sections) {
    const text = cleanText(section.text);
    total += text.length;
    if (total > EXTRACTION_LIMITS.maxTextChars)
      throw new UnreadableDocument('too_much_text', { max: EXTRACTION_LIMITS.maxTextChars });
    if (text !== '') sections.push({ ...section, heading: section.heading && cleanText(section.heading), text });
  }
  if (sections.length === 0) throw new UnreadableDocument('no_text');
  return { pageCount: extracted.pageCount, sections };
}

async function extractPdf(bytes: Uint8Array): Promise<Extracted> {
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1');
  if (!head.includes('%PDF-')) throw new UnreadableDocument('not_pdf');
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const task = pdfjs.getDocument({
    data: bytes,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    stopAtErrors: true,
    verbosity: 0,
  });
  let document: Awaited<typeof task.promise>;
  try {
    document = await task.promise;
  } catch (error) {
    if ((error as Error).name === 'PasswordException') throw new UnreadableDocument('encrypted');
    throw new UnreadableDocument('malformed');
  }
  try {
    if (document.numPages > EXTRACTION_LIMITS.maxPages)
      throw new UnreadableDocument('too_many_pages', { pages: document.numPages, max: EXTRACTION_LIMITS.maxPages });
    const pages: PdfLine[][] = [];
    let total = 0;
    for (let number = 1; number <= document.numPages; number++) {
      const page = await document.getPage(number);
      const content = await page.getTextContent();
      const lines = linesOf(content.items as PdfTextItem[]);
      page.cleanup();
      for (const line of lines) total += line.text.length + 1;
      if (total > EXTRACTION_LIMITS.maxTextChars * 2)
        throw new UnreadableDocument('too_much_text', { max: EXTRACTION_LIMITS.maxTextChars });
      pages.push(lines);
    }
    return { pageCount: document.numPages, sections: pdfSections(pages) };
  } catch (error) {
    if (error instanceof UnreadableDocument) throw error;
    throw new UnreadableDocument('malformed');
  } finally {
    await document.destroy();
  }
}

async function extractDocx(bytes: Uint8Array): Promise<Extracted> {
  checkZip(bytes);
  const paragraphs = await docxParagraphs(bytes);
  const sections = styledSections(paragraphs) ?? plainSections(paragraphs.map((p) => `${p.text}\n\n`).join(''));
  return { pageCount: null, sections };
}

/** A short line without closing punctuation, alone in its paragraph, reads as a heading. */
function looksLikeHeading(paragraph: string): boolean {
  const line = cleanText(paragraph);
  return line.length > 0 && line.length <= 80 && !line.includes('\n') && !/[.!?؟:;,،]$/.test(line);
}

/** Paragraphs (blank-line separated), each under the last heading-like paragraph before it that has text under it. */
export function plainSections(text: string): Section[] {
  const paragraphs = text
    .replace(/\r\n?/g, '\n')
    .split(/\n\s*\n/)
    .filter((p) => p.trim() !== '');
  const sections: Section[] = [];
  let heading: string | null = null;
  paragraphs.forEach((paragraph, i) => {
    const next = paragraphs[i + 1];
    if (looksLikeHeading(paragraph) && next !== undefined && !looksLikeHeading(next)) heading = paragraph.trim();
    else sections.push({ page: null, heading, text: paragraph });
  });
  return sections;
}

/** One section per Markdown heading (# to ######), with the text under it. */
export function markdownSections(text: string): Section[] {
  const sections: Section[] = [];
  let heading: string | null = null;
  let lines: string[] = [];
  const flush = () => {
    if (lines.join('').trim() !== '') sections.push({ page: null, heading, text: lines.join('\n') });
    lines = [];
  };
  for (const line of text.replace(/\r\n?/g, '\n').split('\n')) {
    const match = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (match) {
      flush();
      heading = match[1]!;
    } else lines.push(line);
  }
  flush();
  return sections;
}
