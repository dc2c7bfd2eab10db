// POST /api/admin/kb/files and the rest of the uploaded-documents API over real sockets against the
// built server on the database under test: each kind of document read into passages with its page
// or heading, the limits (size 422, a second file 413, wrong kind 422, not multipart 415), staff
// only, the same bytes uploaded twice applied once, and the chat citing a document's passage with
// its title and page while the document is active, and no longer once deactivated or deleted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORBIDDEN } from '../helpers/staff-api.js';
import { docx, textPdf } from './documents.js';
import { DocumentServer } from './server.js';

const s = new DocumentServer();
beforeAll(() => s.start(), 180_000);
afterAll(() => s.stop());

const TWENTY_MB = 20 * 1024 * 1024;
const SOLAR = [
  'Solar inverter warranty',
  'The solar inverter warranty lasts twelve years from installation.',
  'Claims go through the cooperative office with the serial number.',
];

describe('access', () => {
  it('refuses a request without a token with 401 and a member with 403', async () => {
    const anonymous = await s.call('GET', '/api/admin/kb/files');
    expect(anonymous).toEqual({ status: 401, body: { message: 'Unauthenticated.' } });
    const member = await s.upload([{ name: 'a.txt', content: Buffer.from('Some text here.') }], [], s.member.auth);
    expect(member).toEqual({
      status: 403,
      body: FORBIDDEN,
    });
    for (const [method, path] of [
      ['GET', '/api/admin/kb/files'],
      ['GET', '/api/admin/kb/files/1'],
      ['GET', '/api/admin/kb/files/1/passages'],
      ['DELETE', '/api/admin/kb/files/1'],
    ] as const)
      expect((await s.call(method, path, { auth: s.member.auth })).status).toBe(403);
    expect((await s.call('PUT', '/api/admin/kb/files/1', { auth: s.member.auth, json: {} })).status).toBe(403);
  });
});

describe('each kind of document', () => {
  it('reads a PDF page by page', async () => {
    const file = await s.uploaded(
      'guide.pdf',
      textPdf([['First page about deposits.'], ['Second page about withdrawals.']]),
      [['title', 'Member guide']],
    );
    expect(file).toMatchObject({ title: 'Member guide', kind: 'pdf', status: 'ready', page_count: 2, lang: 'en' });
    expect(file.failure).toBeNull();
    const { body } = await s.call('GET', `/api/admin/kb/files/${file.id}/passages`, { auth: s.admin.auth });
    expect(body.data).toEqual([
      { id: `file-${file.id}.1`, position: 1, page: 1, heading: null, body: 'First page about deposits.' },
      { id: `file-${file.id}.2`, position: 2, page: 2, heading: null, body: 'Second page about withdrawals.' },
    ]);
  });

  it("reads a PDF's headings by their type size: the text under each, its page still cited", async () => {
    const file = await s.uploaded(
      'handbook.pdf',
      textPdf([
        ['Welcome to the handbook.', '# Refund times', 'A refund reaches the card in five working days.'],
        ['It can take longer at the end of the month.', '# Closing an account', 'Write to support first.'],
      ]),
      [['title', 'Handbook']],
    );
    expect(file).toMatchObject({ status: 'ready', page_count: 2 });
    const { body } = await s.call('GET', `/api/admin/kb/files/${file.id}/passages`, { auth: s.admin.auth });
    expect(
      body.data.map((p: { page: number; heading: string | null; body: string }) => [p.page, p.heading, p.body]),
    ).toEqual([
      [1, null, 'Welcome to the handbook.'],
      [1, 'Refund times', 'A refund reaches the card in five working days.'],
      [2, 'Refund times', 'It can take longer at the end of the month.'],
      [2, 'Closing an account', 'Write to support first.'],
    ]);
  });

  it('reads a DOCX as raw text, with its heading-like lines as headings and markup as text', async () => {
    const file = await s.uploaded(
      'rules.docx',
      docx(['Voting rules', 'Each member has one vote. <script>alert(1)</script> Proxies are allowed.']),
    );
    expect(file).toMatchObject({ kind: 'docx', status: 'ready', page_count: null, title: 'rules' });
    const { body } = await s.call('GET', `/api/admin/kb/files/${file.id}/passages`, { auth: s.admin.auth });
    expect(body.data).toEqual([
      {
        id: `file-${file.id}.1`,
        position: 1,
        page: null,
        heading: 'Voting rules',
        body: 'Each member has one vote. alert(1) Proxies are allowed.',
      },
    ]);
  });

  it('reads a DOCX by its heading styles when it has them, and the chat cites the heading', async () => {
    const file = await s.uploaded(
      'guide.docx',
      docx([
        { text: 'Proxy voting', style: 'Heading1' },
        'A member who cannot attend the annual meeting may name a proxy in writing',
        { text: 'Quorum', style: 'Heading1' },
        'The meeting decides when a third of the members are present.',
      ]),
    );
    expect(file).toMatchObject({ kind: 'docx', status: 'ready', passage_count: 2 });
    const { body } = await s.call('GET', `/api/admin/kb/files/${file.id}/passages`, { auth: s.admin.auth });
    expect(body.data.map((p: { heading: string | null; body: string }) => [p.heading, p.body])).toEqual([
      ['Proxy voting', 'A member who cannot attend the annual meeting may name a proxy in writing'],
      ['Quorum', 'The meeting decides when a third of the members are present.'],
    ]);
    const answer = await s.chat('Can I name a proxy in writing if I cannot attend the annual meeting?');
    expect(answer.body.sources[0]).toEqual({ id: `file-${file.id}.1`, title: 'guide: Proxy voting' });
  });

  it('reads Markdown section by section and plain text paragraph by paragraph', async () => {
    const md = await s.uploaded(
      'faq.md',
      Buffer.from('# Meetings\n\nThe annual meeting is in May.\n\n## Agenda\n\nBudget and elections.\n'),
    );
    expect(md).toMatchObject({ kind: 'md', status: 'ready', passage_count: 2 });
    const mdPassages = (await s.call('GET', `/api/admin/kb/files/${md.id}/passages`, { auth: s.admin.auth })).body.data;
    expect(mdPassages.map((p: any) => [p.heading, p.body])).toEqual([
      ['Meetings', 'The annual meeting is in May.'],
      ['Agenda', 'Budget and elections.'],
    ]);
    const txt = await s.uploaded('note.TXT', Buffer.from('Office hours\n\nWe open at nine.\r\n\r\nWe close at five.'));
    expect(txt).toMatchObject({ kind: 'txt', status: 'ready', passage_count: 2, file_name: 'note.TXT' });
  });

  it('reads Persian text and says it is Persian', async () => {
    const file = await s.uploaded('fa.txt', Buffer.from('ساعت کاری\n\nدفتر تعاونی از ساعت نه صبح باز است.'));
    expect(file).toMatchObject({ status: 'ready', lang: 'fa' });
  });
});

describe('limits and validation', () => {
  it('takes a file just under 20 MB and refuses 20 MB with 422', async () => {
    const big = Buffer.alloc(TWENTY_MB, 0x61);
    const refused = await s.upload([{ name: 'big.txt', content: big }]);
    expect(refused).toEqual({
      status: 422,
      body: {
        success: false,
        message: 'The given data was invalid.',
        errors: { file: ['The file must be smaller than 20480 kilobytes.'] },
      },
    });
    const taken = await s.upload([{ name: 'big2.txt', content: big.subarray(1) }]);
    expect(taken.status).toBe(202);
    expect(taken.body.data).toMatchObject({ status: 'processing', file_size: TWENTY_MB - 1 });
  });

  it('refuses a second file with 413, a wrong kind, no file and a bad title with 422, JSON with 415', async () => {
    const two = await s.upload([
      { name: 'a.txt', content: Buffer.from('one') },
      { name: 'b.txt', content: Buffer.from('two') },
    ]);
    expect(two.status).toBe(413);
    expect(two.body).toEqual({ message: 'The request body is too large.' });
    const exe = await s.upload([{ name: 'tool.exe', content: Buffer.from('MZ') }]);
    expect(exe.body).toEqual({
      success: false,
      message: 'The given data was invalid.',
      errors: { file: ['The file must be a file of type: pdf, docx, txt, md, markdown.'] },
    });
    const none = await s.upload([], [['title', 'x']]);
    expect(none.body.errors).toEqual({ file: ['The file field is required.'] });
    const empty = await s.upload([{ name: 'empty.txt', content: Buffer.alloc(0) }]);
    expect(empty.body.errors).toEqual({ file: ['The file must be a file.'] });
    const lang = await s.upload([{ name: 'c.txt', content: Buffer.from('three') }], [['lang', 'de']]);
    expect(lang.status).toBe(422);
    expect(Object.keys(lang.body.errors)).toEqual(['lang']);
    const json = await s.call('POST', '/api/admin/kb/files', { auth: s.admin.auth, json: { title: 'x' } });
    expect(json).toEqual({
      status: 415,
      body: { message: 'Unsupported content type: send multipart/form-data with the document in the field file.' },
    });
  });

  it('answers 404 for an unknown file and 422 for a bad id or body', async () => {
    const missing = await s.call('GET', '/api/admin/kb/files/999999', { auth: s.admin.auth });
    expect(missing).toEqual({ status: 404, body: { success: false, message: 'Document not found.' } });
    expect((await s.call('DELETE', '/api/admin/kb/files/999999', { auth: s.admin.auth })).status).toBe(404);
    expect((await s.call('GET', '/api/admin/kb/files/abc', { auth: s.admin.auth })).status).toBe(422);
    const patch = await s.call('PUT', '/api/admin/kb/files/1', { auth: s.admin.auth, json: { active: 'no' } });
    expect(patch.status).toBe(422);
  });
});

describe('the same upload twice', () => {
  it('is one file: the second answer is 200 with the first file', async () => {
    const content = Buffer.from('Retry policy\n\nA retried upload is stored once.');
    const first = await s.upload([{ name: 'retry.txt', content }]);
    const second = await s.upload([{ name: 'retry-again.txt', content }], [['title', 'Other title']]);
    expect(first.status).toBe(202);
    expect(second.status).toBe(200);
    expect(second.body.message).toBe('This document was uploaded before; nothing new was stored.');
    expect(second.body.data.id).toBe(first.body.data.id);
    expect(second.body.data.title).toBe('retry');
    const list = await s.call('GET', '/api/admin/kb/files?per_page=100', { auth: s.admin.auth });
    expect(list.body.data.filter((f: any) => f.sha256 === first.body.data.sha256)).toHaveLength(1);
  });
});

describe('the chat', () => {
  it('cites a document passage with its title and page while active, and not once deactivated or deleted', async () => {
    const question = 'How long is the solar inverter warranty?';
    const cites = async () =>
      ((await s.chat(question)).body.sources as Array<{ id: string; title: string }>).filter((x) =>
        x.id.startsWith('file-'),
      );
    expect(await cites()).toEqual([]);
    const file = await s.uploaded('solar.pdf', textPdf([['Cover page'], SOLAR]), [['title', 'Solar handbook']]);
    expect(file.status).toBe('ready');
    const answer = await s.chat(question);
    expect(answer.body.sources[0]).toEqual({ id: `file-${file.id}.2`, title: 'Solar handbook, page 2' });
    expect(answer.body.message).toContain('twelve years');

    const off = await s.call('PUT', `/api/admin/kb/files/${file.id}`, {
      auth: s.admin.auth,
      json: { active: false },
    });
    expect(off.body.data).toMatchObject({ active: false, status: 'ready' });
    expect(await cites()).toEqual([]);
    await s.call('PUT', `/api/admin/kb/files/${file.id}`, { auth: s.admin.auth, json: { active: true } });
    expect((await cites())[0]?.id).toBe(`file-${file.id}.2`);

    const deleted = await s.call('DELETE', `/api/admin/kb/files/${file.id}`, { auth: s.admin.auth });
    expect(deleted).toEqual({ status: 200, body: { success: true, message: 'Document deleted.' } });
    expect(await cites()).toEqual([]);
    expect((await s.call('GET', `/api/admin/kb/files/${file.id}`, { auth: s.admin.auth })).status).toBe(404);
  });
});
