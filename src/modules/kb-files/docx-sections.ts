// A Word document's sections, told by its paragraph styles. mammoth parses the document into a tree
// of paragraphs, each with the style Word gave it; the tree is read here before mammoth would turn
// it into HTML (the tree handed back is empty, so no HTML is made and no image is read). A
// paragraph styled as a heading ("heading 1" to "heading 6", or "Title", by the style's name or
// its id: localised copies of Word keep the English name but may number the id) heads the
// paragraphs after it. A document with no heading style reads as its raw text always did: the
// headings guessed from the shape of the lines (plainSections).
import type { Section } from './passages.js';
import { UnreadableDocument } from './limits.js';

/** A node of mammoth's document tree, as far as it is read here. */
interface DocxNode {
  type: string;
  value?: string;
  styleId?: string | null;
  styleName?: string | null;
  children?: DocxNode[];
}

/** One paragraph of the document: its text and whether its style makes it a heading. */
export interface DocxParagraph {
  text: string;
  heading: boolean;
}

const HEADING_STYLE = /^(?:heading\s*[1-6]|title)$/i;

function isHeadingStyle(paragraph: Pick<DocxNode, 'styleId' | 'styleName'>): boolean {
  return HEADING_STYLE.test(paragraph.styleName ?? '') || HEADING_STYLE.test(paragraph.styleId ?? '');
}

/** The text of a node as mammoth's raw-text reader gives it (a tab as a tab, nothing for other marks). */
function textOf(node: DocxNode): string {
  if (node.type === 'text') return node.value ?? '';
  if (node.type === 'tab') return '\t';
  let text = '';
  for (const child of node.children ?? []) text += textOf(child);
  return text;
}

/** Every paragraph in document order, those in tables' cells included. */
function paragraphsOf(node: DocxNode, into: DocxParagraph[] = []): DocxParagraph[] {
  if (node.type === 'paragraph') into.push({ text: textOf(node), heading: isHeadingStyle(node) });
  else for (const child of node.children ?? []) paragraphsOf(child, into);
  return into;
}

/**
 * Sections from styled paragraphs: each paragraph with text under the last heading before it.
 * Null when no paragraph with text is styled as a heading (the caller then guesses from the text).
 */
export function styledSections(paragraphs: DocxParagraph[]): Section[] | null {
  if (!paragraphs.some((p) => p.heading && p.text.trim() !== '')) return null;
  const sections: Section[] = [];
  let heading: string | null = null;
  for (const paragraph of paragraphs) {
    const text = paragraph.text.trim();
    if (text === '') continue;
    if (paragraph.heading) heading = text;
    else sections.push({ page: null, heading, text });
  }
  return sections;
}

/** The document's paragraphs, read by mammoth (whose HTML is never made). */
export async function docxParagraphs(bytes: Uint8Array): Promise<DocxParagraph[]> {
  const mammoth = (await import('mammoth')).default;
  let paragraphs: DocxParagraph[] | null = null;
  try {
    await mammoth.convertToHtml(
      { buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) },
      {
        transformDocument: (document: DocxNode) => {
          paragraphs = paragraphsOf(document);
          return { ...document, children: [] };
        },
      },
    );
  } catch {
    throw new UnreadableDocument('malformed');
  }
  if (paragraphs === null) throw new UnreadableDocument('malformed');
  return paragraphs;
}
