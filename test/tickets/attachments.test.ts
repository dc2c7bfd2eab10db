import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { filesUnder } from '../../harness/files.js';
import type { TestUser } from '../helpers/factories.js';
import { multipart, type FilePart } from '../helpers/multipart.js';
import { DOC, DOCX, GIF, JPG, PDF, PNG, RAR, ZIP, createTicketFor } from './helpers.js';

const TEN_MB = 10_485_760;

describe('attachments', () => {
  let t: TestApp;
  let user: TestUser;
  let other: TestUser;
  const storedFiles = () => filesUnder(path.join(t.dataDir, 'attachments'));

  beforeAll(async () => {
    t = await buildTestApp();
    user = await t.makeUser();
    other = await t.makeUser();
  });
  afterAll(() => t.close());

  const fields: Array<[string, string]> = [
    ['subject', 'Screenshot of the error'],
    ['message', 'See the attached files please.'],
  ];
  const create = (files: FilePart[], extra: Array<[string, string]> = [], who: TestUser = user) => {
    const body = multipart([...fields, ...extra], files);
    return t.app.inject({
      method: 'POST',
      url: '/api/tickets',
      headers: { ...who.auth, ...body.headers },
      payload: body.payload,
    });
  };
  const download = (ticketId: number, attachmentId: number, who: TestUser = user) =>
    t.app.inject({
      method: 'GET',
      url: `/api/tickets/${ticketId}/attachments/${attachmentId}/download`,
      headers: who.auth,
    });

  it('answers another content type on an upload route with 415 naming both types it takes', async () => {
    for (const url of ['/api/tickets', '/api/tickets/1/comments']) {
      const res = await t.app.inject({
        method: 'POST',
        url,
        headers: { ...user.auth, 'content-type': 'application/xml' },
        payload: '<a/>',
      });
      expect(res.statusCode, url).toBe(415);
      expect(res.json()).toEqual({
        message: 'Unsupported content type: send application/json or multipart/form-data.',
      });
    }
    const fa = await t.app.inject({
      method: 'POST',
      url: '/api/tickets',
      headers: { ...user.auth, 'content-type': 'application/xml', 'accept-language': 'fa' },
      payload: '<a/>',
    });
    expect(fa.json()).toEqual({
      message: 'نوع محتوا پشتیبانی نمی‌شود: application/json یا multipart/form-data بفرستید.',
    });
  });

  it('accepts every allowed type under attachments[], attachments[N] and attachments', async () => {
    const files: FilePart[] = [
      { name: 'a.png', content: PNG },
      { name: 'b.jpg', content: JPG, field: 'attachments[1]' },
      { name: 'c.jpeg', content: JPG, field: 'attachments' },
      { name: 'd.gif', content: GIF },
      { name: 'e.pdf', content: PDF },
      { name: 'f.doc', content: DOC },
      { name: 'g.docx', content: DOCX },
      { name: 'h.txt', content: Buffer.from('plain text, سلام') },
      { name: 'i.zip', content: ZIP },
      { name: 'j.rar', content: RAR },
    ];
    const res = await create(files);
    expect(res.statusCode).toBe(201);
    const attachments = res.json().data.attachments;
    expect(attachments.map((a: { file_name: string }) => a.file_name)).toEqual(files.map((f) => f.name));
    expect(attachments[0]).toEqual({
      id: expect.any(Number),
      file_name: 'a.png',
      file_type: 'image/png',
      file_size: PNG.length,
      created_at: expect.any(String),
    });
  });

  it('creates a ticket from a multipart form without files, with tags[] and an empty file input', async () => {
    const res = await create(
      [{ name: '', content: Buffer.alloc(0) }],
      [
        ['priority', 'high'],
        ['category', ''],
      ],
    );
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({ priority: 'high', category: null, attachments: [] });
  });

  it('downloads the raw bytes with type, length, disposition and nosniff', async () => {
    const created = (await create([{ name: 'shot.png', content: PNG }])).json().data;
    const res = await download(created.id, created.attachments[0].id);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(PNG)).toBe(true);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['content-length']).toBe(String(PNG.length));
    expect(res.headers['content-disposition']).toBe(`attachment; filename="shot.png"; filename*=UTF-8''shot.png`);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('keeps a Persian file name through filename*', async () => {
    const created = (await create([{ name: 'گزارش خطا.pdf', content: PDF }])).json().data;
    expect(created.attachments[0].file_name).toBe('گزارش خطا.pdf');
    const res = await download(created.id, created.attachments[0].id);
    const disposition = res.headers['content-disposition'] as string;
    expect(disposition).toMatch(/^attachment; filename="[\x20-\x7e]+"; filename\*=UTF-8''/);
    expect(decodeURIComponent(disposition.split("UTF-8''")[1]!)).toBe('گزارش خطا.pdf');
  });

  it('stores a name like ../../etc/passwd.txt as its last segment, under a random key', async () => {
    const created = (await create([{ name: '../../etc/passwd.txt', content: Buffer.from('root:x:0:0') }])).json().data;
    expect(created.attachments[0].file_name).toBe('passwd.txt');
    const row = await t.db
      .selectFrom('ticket_attachments')
      .select('storage_key')
      .where('id', '=', created.attachments[0].id)
      .executeTakeFirstOrThrow();
    expect(row.storage_key).toMatch(/^[a-f0-9]{32}$/);
    expect(storedFiles().some((f) => f.endsWith(row.storage_key))).toBe(true);
    expect(fs.existsSync(path.join(t.dataDir, 'etc'))).toBe(false);
  });

  it('refuses a name like ../../etc/passwd (no allowed extension) with 422', async () => {
    const res = await create([{ name: '../../etc/passwd', content: Buffer.from('root:x:0:0') }]);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({
      'attachments.0': [
        'The attachments.0 must be a file of type: jpg, jpeg, png, gif, pdf, doc, docx, txt, zip, rar.',
      ],
    });
  });

  it('refuses a .png that is not a PNG, names its index, and keeps no file', async () => {
    const before = storedFiles().length;
    const res = await create([
      { name: 'ok.png', content: PNG },
      { name: 'fake.png', content: Buffer.from('MZ\x90\x00 not an image') },
    ]);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      success: false,
      message: 'Validation error.',
      errors: {
        'attachments.1': [
          'The attachments.1 must be a file of type: jpg, jpeg, png, gif, pdf, doc, docx, txt, zip, rar.',
        ],
      },
    });
    expect(storedFiles().length).toBe(before);
  });

  it.each([
    ['a .txt with NUL bytes', 'bin.txt', Buffer.from([0x68, 0x00, 0x69])],
    ['a .txt that is not UTF-8', 'latin.txt', Buffer.from([0xff, 0xfe, 0xe9])],
    ['a .doc without the OLE header', 'x.doc', Buffer.from('just text')],
    ['a .docx that is a plain zip', 'x.docx', ZIP],
    ['a .pdf that is a PNG', 'x.pdf', PNG],
    ['an .exe', 'setup.exe', Buffer.from('MZ')],
    ['an empty file', 'empty.txt', Buffer.alloc(0)],
  ])('refuses %s with 422 on attachments.0', async (_name, fileName, content) => {
    const res = await create([{ name: fileName, content }]);
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(['attachments.0']);
  });

  it('refuses 11 files with 422 on attachments and keeps none', async () => {
    const before = storedFiles().length;
    const res = await create(
      Array.from({ length: 11 }, (_, i) => ({ name: `f${i}.txt`, content: Buffer.from(`file ${i}`) })),
    );
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ attachments: ['The attachments must not have more than 10 items.'] });
    expect(storedFiles().length).toBe(before);
  });

  it('refuses a file of exactly 10,485,760 bytes and accepts one byte less', async () => {
    const tooBig = await create([{ name: 'big.txt', content: Buffer.alloc(TEN_MB, 0x61) }]);
    expect(tooBig.statusCode).toBe(422);
    expect(tooBig.json().errors).toEqual({
      'attachments.0': ['The attachments.0 must be smaller than 10240 kilobytes.'],
    });
    const fits = await create([{ name: 'big.txt', content: Buffer.alloc(TEN_MB - 1, 0x61) }]);
    expect(fits.statusCode).toBe(201);
    expect(fits.json().data.attachments[0].file_size).toBe(TEN_MB - 1);
  });

  it('reports field and file errors together, and removes files of a request that fails validation', async () => {
    const before = storedFiles().length;
    const body = multipart(
      [
        ['subject', 'Only a subject'],
        ['message', 'short'],
      ],
      [
        { name: 'ok.png', content: PNG },
        { name: 'bad.gif', content: PNG },
      ],
    );
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/tickets',
      headers: { ...user.auth, ...body.headers },
      payload: body.payload,
    });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors).sort()).toEqual(['attachments.1', 'message']);
    expect(storedFiles().length).toBe(before);
  });

  it('removes written files when the transaction fails (unknown tag)', async () => {
    const before = storedFiles().length;
    const res = await create([{ name: 'ok.png', content: PNG }], [['tags[]', '999999']]);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ 'tags.0': ['The selected tags.0 is invalid.'] });
    expect(storedFiles().length).toBe(before);
  });

  it('answers 400, not 500, for a broken multipart body', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/tickets',
      headers: { ...user.auth, 'content-type': 'multipart/form-data; boundary=xyz' },
      payload: '--xyz\r\nContent-Disposition: form-data; name="subject"\r\n\r\nunterminated',
    });
    expect([400, 422]).toContain(res.statusCode);
    expect(res.json().success).toBe(false);
  });

  it('accepts files on comments and lists them under the comment', async () => {
    const ticket = await createTicketFor(t, user);
    const body = multipart([['message', 'Here is the receipt.']], [{ name: 'receipt.pdf', content: PDF }]);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/tickets/${ticket.id}/comments`,
      headers: { ...user.auth, ...body.headers },
      payload: body.payload,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().data.attachments).toEqual([
      {
        id: expect.any(Number),
        file_name: 'receipt.pdf',
        file_type: 'application/pdf',
        file_size: PDF.length,
        created_at: expect.any(String),
      },
    ]);
    const detail = (await t.app.inject({ method: 'GET', url: `/api/tickets/${ticket.id}`, headers: user.auth })).json()
      .data;
    expect(detail.attachments).toEqual([]);
    expect(detail.comments[0].attachments).toHaveLength(1);
    expect(detail.activities.map((a: { type: string }) => a.type)).toEqual([
      'created',
      'comment_added',
      'attachment_added',
    ]);
    const file = await download(ticket.id, res.json().data.attachments[0].id);
    expect(file.rawPayload.equals(PDF)).toBe(true);
  });

  it('answers 404 {success:false, message} when the file is gone from disk', async () => {
    const created = (await create([{ name: 'gone.png', content: PNG }])).json().data;
    const row = await t.db
      .selectFrom('ticket_attachments')
      .select('storage_key')
      .where('id', '=', created.attachments[0].id)
      .executeTakeFirstOrThrow();
    fs.rmSync(path.join(t.dataDir, 'attachments', row.storage_key.slice(0, 2), row.storage_key));
    const res = await download(created.id, created.attachments[0].id);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ success: false, message: 'The file no longer exists on the server.' });
  });

  it("answers 404 for an attachment of another ticket, even the caller's own", async () => {
    const first = (await create([{ name: 'one.png', content: PNG }])).json().data;
    const second = await createTicketFor(t, user);
    const res = await download(second.id, first.attachments[0].id);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ success: false, message: 'Attachment not found.' });
    const foreign = await download(first.id, first.attachments[0].id, other);
    expect(foreign.json()).toEqual({ message: `No query results for model [Ticket] ${first.id}` });
  });
});
