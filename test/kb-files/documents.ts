// Documents made by hand for the upload tests, so each one is exactly what it claims to be: PDFs
// written object by object with a correct cross-reference table (text pages, 10,000 empty pages,
// an encryption dictionary, a broken body), DOCX files zipped with node:zlib (a real one and zip
// bombs, honest and lying about their sizes), and text in several encodings.
import { wordZip } from '../../harness/docx.js';

export { docx } from '../../harness/docx.js';

/** A PDF of the given objects (1-based, in order) with catalogue 1 and an optional trailer extra. */
function pdfOf(objects: string[], trailerExtra = ''): Buffer {
  const chunks: string[] = ['%PDF-1.4\n'];
  const offsets: number[] = [];
  let length = chunks[0]!.length;
  objects.forEach((body, i) => {
    offsets.push(length);
    const text = `${i + 1} 0 obj\n${body}\nendobj\n`;
    chunks.push(text);
    length += Buffer.byteLength(text, 'latin1');
  });
  const xref = [`xref\n0 ${objects.length + 1}\n`, '0000000000 65535 f \n'];
  for (const offset of offsets) xref.push(`${String(offset).padStart(10, '0')} 00000 n \n`);
  chunks.push(...xref);
  chunks.push(`trailer\n<< /Size ${objects.length + 1} /Root 1 0 R ${trailerExtra}>>\nstartxref\n${length}\n%%EOF\n`);
  return Buffer.from(chunks.join(''), 'latin1');
}

const escapePdf = (text: string) => text.replace(/[\\()]/g, (c) => `\\${c}`);

/** A line of a test PDF: a "# " line is set in 18 pt (a heading), the rest in 12 pt. */
const shownLine = (line: string) =>
  line.startsWith('# ') ? `/F1 18 Tf (${escapePdf(line.slice(2))}) Tj T* /F1 12 Tf` : `(${escapePdf(line)}) Tj T*`;

/** A PDF with one page per entry, each page showing its lines of (Latin-1) text in Helvetica ("# ": larger). */
export function textPdf(pages: string[][], trailerExtra = ''): Buffer {
  const font = 3 + pages.length * 2;
  const objects = ['<< /Type /Catalog /Pages 2 0 R >>'];
  const kids = pages.map((_, i) => `${3 + i * 2} 0 R`).join(' ');
  objects.push(`<< /Type /Pages /Kids [${kids}] /Count ${pages.length} >>`);
  for (const lines of pages) {
    const contentId = objects.length + 2;
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 ${font} 0 R >> >> /Contents ${contentId} 0 R >>`,
    );
    const stream = `BT /F1 12 Tf 72 720 Td 14 TL ${lines.map(shownLine).join(' ')} ET`;
    objects.push(`<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`);
  }
  objects.push('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  return pdfOf(objects, trailerExtra);
}

/** count pages with no content at all. */
export function emptyPagesPdf(count: number): Buffer {
  const objects = ['<< /Type /Catalog /Pages 2 0 R >>'];
  const kids = Array.from({ length: count }, (_, i) => `${3 + i} 0 R`).join(' ');
  objects.push(`<< /Type /Pages /Kids [${kids}] /Count ${count} >>`);
  for (let i = 0; i < count; i++) objects.push('<< /Type /Page /Parent 2 0 R /MediaBox [0 0 10 10] >>');
  return pdfOf(objects);
}

/** A PDF that needs a user password: a standard security handler whose U entry no empty password matches. */
export function encryptedPdf(): Buffer {
  const page = textPdf([['Secret text']]);
  const base = page.toString('latin1');
  const objects = base.match(/\d+ 0 obj\n[\s\S]*?\nendobj\n/g)!.map((o) => o.replace(/^\d+ 0 obj\n|\nendobj\n$/g, ''));
  const filler = `<${'ab'.repeat(32)}>`;
  objects.push(`<< /Filter /Standard /V 1 /R 2 /O ${filler} /U ${filler} /P -4 >>`);
  return pdfOf(
    objects,
    `/Encrypt ${objects.length} 0 R /ID [<0123456789abcdef0123456789abcdef> <0123456789abcdef0123456789abcdef>] `,
  );
}

/** A file that starts like a PDF and then is not one. */
export function malformedPdf(): Buffer {
  return Buffer.from(
    '%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 9 0 R\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n',
    'latin1',
  );
}

/** A Word document whose body inflates to size bytes of one repeated paragraph; claimed: the size its zip states. */
export function zipBombDocx(size: number, claimed?: number): Buffer {
  const head =
    '<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>';
  const tail = '</w:t></w:r></w:p></w:body></w:document>';
  const xml = Buffer.alloc(size, 0x61);
  xml.write(head, 0);
  xml.write(tail, size - tail.length);
  return wordZip(xml, { claimedSize: claimed });
}
