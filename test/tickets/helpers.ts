// Builders for ticket tests: small real files of each allowed type and a ticket made through the
// API. (Multipart bodies: test/helpers/multipart.ts.)
import type { TestApp } from '../helpers/app.js';
import { zip as zipOf } from '../../harness/zip.js';
import type { TestUser } from '../helpers/factories.js';

export const PNG = Buffer.concat([
  Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex'),
  Buffer.from('0000000d4944415478da63f8ffff3f0005fe02fea7d6a4a10000000049454e44ae426082', 'hex'),
]);
export const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
export const GIF = Buffer.from('474946383961010001000000002c00000000010001000002024401003b', 'hex');
export const JPG = Buffer.concat([
  Buffer.from('ffd8ffe000104a46494600010100000100010000', 'hex'),
  Buffer.alloc(64, 0),
  Buffer.from('ffd9', 'hex'),
]);
export const DOC = Buffer.concat([Buffer.from('d0cf11e0a1b11ae1', 'hex'), Buffer.alloc(504, 0)]);
export const RAR = Buffer.concat([Buffer.from('526172211a0700', 'hex'), Buffer.alloc(32, 0)]);

/** A stored (uncompressed) zip with the given entries, by name and text. */
export function zip(entries: Record<string, string>): Buffer {
  return zipOf(
    Object.entries(entries).map(([name, text]) => ({ name, data: Buffer.from(text) })),
    'store',
  );
}

export const ZIP = zip({ 'readme.txt': 'hello' });
export const DOCX = zip({
  '[Content_Types].xml':
    '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override ' +
    'PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
  'word/document.xml':
    '<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body/></w:document>',
});

export async function createTicketFor(t: TestApp, user: TestUser, body: Record<string, unknown> = {}) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/tickets',
    headers: user.auth,
    payload: { subject: 'Payment failed', message: 'My card was charged twice for one order.', ...body },
  });
  if (res.statusCode !== 201) throw new Error(`ticket not created: ${res.statusCode} ${res.body}`);
  return res.json().data as { id: number; tracking_code: string; [k: string]: unknown };
}
