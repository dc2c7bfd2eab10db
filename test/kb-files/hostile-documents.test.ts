// Hostile documents uploaded to POST /api/admin/kb/files, over real sockets against the built
// server: each ends as `failed` with its reason in bounded time (a PDF that is not one, an
// encrypted one, a malformed one, 10,000 empty pages, DOCX zip bombs honest and lying about their
// sizes, a DOCX that is not a zip, binary "text"), odd text encodings are read, and the server
// keeps answering while and after it reads them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docx, emptyPagesPdf, encryptedPdf, malformedPdf, textPdf, zipBombDocx } from './documents.js';
import { DocumentServer } from './server.js';

const s = new DocumentServer();
beforeAll(() => s.start(), 180_000);
afterAll(() => s.stop());

async function failure(name: string, content: Buffer): Promise<{ code: string; message: string }> {
  const started = Date.now();
  const file = await s.uploaded(name, content);
  expect(file.status).toBe('failed');
  expect(file.passage_count).toBe(0);
  // Well within the worker's 30 s deadline: each refusal is decided early.
  expect(Date.now() - started).toBeLessThan(30_000);
  return file.failure;
}

describe('hostile documents fail with a clear reason', () => {
  it('a .pdf that is not a PDF', async () => {
    expect(await failure('fake.pdf', Buffer.from('MZ this is a program, not a document'))).toEqual({
      code: 'not_pdf',
      message: 'The file is not a PDF document, although its name ends in .pdf.',
    });
  });

  it('an encrypted PDF', async () => {
    expect((await failure('locked.pdf', encryptedPdf())).code).toBe('encrypted');
  });

  it('a malformed PDF', async () => {
    expect((await failure('broken.pdf', malformedPdf())).code).toBe('malformed');
    const cut = textPdf([['A page that is cut short in the middle.']]);
    expect((await failure('cut.pdf', cut.subarray(0, Math.floor(cut.length / 2)))).code).toBe('malformed');
  });

  it('10,000 empty pages, refused before a page is read', async () => {
    expect(await failure('empty.pdf', emptyPagesPdf(10_000))).toEqual({
      code: 'too_many_pages',
      message: 'The document has 10000 pages; at most 2000 are read.',
    });
  });

  it('pages without text', async () => {
    expect((await failure('blank.pdf', emptyPagesPdf(3))).code).toBe('no_text');
  });

  it('a DOCX zip bomb that states its size, refused unread', async () => {
    const bomb = zipBombDocx(300 * 1024 * 1024);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    expect((await failure('bomb.docx', bomb)).code).toBe('zip_bomb');
  });

  it('a DOCX zip bomb that lies about its size, stopped at the stated size', async () => {
    expect((await failure('liar.docx', zipBombDocx(300 * 1024 * 1024, 4096))).code).toBe('zip_bomb');
  });

  it('a .docx that is not a zip', async () => {
    expect((await failure('plain.docx', Buffer.from('just some words'))).code).toBe('not_docx');
  });

  it('binary bytes named .txt', async () => {
    expect(await failure('data.txt', Buffer.from([0x00, 0x01, 0x02, 0xff, 0xfe, 0x00, 0x10]))).toEqual({
      code: 'encoding',
      message: 'The text is not in UTF-8, UTF-16 or Windows-1256, or is not text at all.',
    });
  });

  it('answers other requests while it reads', async () => {
    const bomb = s.upload([{ name: 'slow.docx', content: zipBombDocx(90 * 1024 * 1024, 60 * 1024 * 1024) }]);
    const health = await fetch(`${s.server.url}/health`);
    expect(health.status).toBe(200);
    const answer = await bomb;
    const file = await s.settled(answer.body.data.id);
    expect(file.status).toBe('failed');
  });
});

describe('odd text encodings are read', () => {
  const passages = async (id: number) =>
    (await s.call('GET', `/api/admin/kb/files/${id}/passages`, { auth: s.admin.auth })).body.data.map(
      (p: any) => p.body,
    );

  it('UTF-16 with either byte order mark, UTF-8 with a mark, Windows-1256', async () => {
    const text = 'دفتر تعاونی شنبه‌ها باز است.';
    const le = await s.uploaded('le.txt', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
    const beBytes = Buffer.from(text, 'utf16le').swap16();
    const be = await s.uploaded('be.txt', Buffer.concat([Buffer.from([0xfe, 0xff]), beBytes]));
    const bom = await s.uploaded(
      'bom.md',
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`# عنوان\n\n${text}`)]),
    );
    // "Hello world." in Windows-1256, whose 0xED is the Arabic yeh (U+064A) Persian Windows wrote.
    const legacy = await s.uploaded(
      'legacy.txt',
      Buffer.from([0xd3, 0xe1, 0xc7, 0xe3, 0x20, 0xcf, 0xe4, 0xed, 0xc7, 0x2e]),
    );
    for (const file of [le, be, bom, legacy]) expect(file).toMatchObject({ status: 'ready', lang: 'fa' });
    expect(await passages(le.id)).toEqual([text]);
    expect(await passages(be.id)).toEqual([text]);
    expect(await passages(bom.id)).toEqual([text]);
    expect(await passages(legacy.id)).toEqual(['سلام دن\u064aا.']);
  });

  it('keeps the text of a DOCX in Persian', async () => {
    const file = await s.uploaded('fa.docx', docx(['قوانین رای‌گیری', 'هر عضو یک رای دارد و می‌تواند وکیل بگیرد.']));
    expect(file).toMatchObject({ status: 'ready', lang: 'fa' });
    const { body } = await s.call('GET', `/api/admin/kb/files/${file.id}/passages`, { auth: s.admin.auth });
    expect(body.data[0]).toMatchObject({ heading: 'قوانین رای‌گیری', body: 'هر عضو یک رای دارد و می‌تواند وکیل بگیرد.' });
  });
});
