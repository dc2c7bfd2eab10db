// Word documents written by hand: the three parts a reader needs (content types, the package's
// relationships, the body) and, when asked, a styles part, zipped by zip.ts. A paragraph may be set
// in a style by its id; the styles part names ids as a localised Word does (its own ids, the
// English names), so a reader that knows headings by name or by id can be tested on both.
import { zip } from './zip.js';

const CONTENT_TYPES =
  '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>';
const RELS =
  '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>';

const escapeXml = (text: string) => text.replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** A paragraph: its text, and the id of the style it is set in when it has one. */
export type DocxParagraph = string | { text: string; style: string };

function documentXml(paragraphs: DocxParagraph[]): string {
  const body = paragraphs
    .map((p) => {
      const { text, style } = typeof p === 'string' ? { text: p, style: null } : p;
      const properties = style ? `<w:pPr><w:pStyle w:val="${escapeXml(style)}"/></w:pPr>` : '';
      return `<w:p>${properties}<w:r><w:t xml:space="preserve">${escapeXml(text)}</w:t></w:r></w:p>`;
    })
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`;
}

function stylesXml(names: Record<string, string>): string {
  const styles = Object.entries(names)
    .map(
      ([id, name]) =>
        `<w:style w:type="paragraph" w:styleId="${escapeXml(id)}"><w:name w:val="${escapeXml(name)}"/></w:style>`,
    )
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?><w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">${styles}</w:styles>`;
}

/**
 * A Word package around a body part as given (claimedSize: the inflated size its zip states, to
 * make one that lies), with a styles part when one is given.
 */
export function wordZip(body: Buffer, options: { styles?: string; claimedSize?: number } = {}): Buffer {
  return zip([
    { name: '[Content_Types].xml', data: Buffer.from(CONTENT_TYPES) },
    { name: '_rels/.rels', data: Buffer.from(RELS) },
    { name: 'word/document.xml', data: body, claimedSize: options.claimedSize },
    ...(options.styles ? [{ name: 'word/styles.xml', data: Buffer.from(options.styles) }] : []),
  ]);
}

/** A Word document of the paragraphs, with a styles part naming the style ids when names are given. */
export function docx(paragraphs: DocxParagraph[], styleNames?: Record<string, string>): Buffer {
  return wordZip(Buffer.from(documentXml(paragraphs)), { styles: styleNames && stylesXml(styleNames) });
}
