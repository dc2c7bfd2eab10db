// SQL injection and path traversal, case by case: every text that reaches a query (q, category,
// ids, geographic level and parentId, the bearer token) and every file name. The answers are the
// spec's 4xx or an empty/literal result, the database keeps its tables and rows, and stored files
// stay under DATA_DIR/attachments with random names.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipart } from '../helpers/multipart.js';
import { MULTIPART_BOUNDARY, PNG_FILE, TEXT_FILE } from './arbitraries.js';
import { TICKET_NOT_FOUND, UNAUTHENTICATED, VALIDATION_MESSAGE } from './checks.js';
import { filesUnder } from '../../harness/files.js';
import { rowCount } from '../helpers/app.js';
import { applicationTables, buildWorld, expectStorageConsistent, type World } from './world.js';

const SQL_PAYLOADS = [
  "' OR '1'='1",
  "' OR 1=1 --",
  "billing' OR 'x'='x",
  "'; DROP TABLE tickets; --",
  '"; DROP TABLE users; --',
  '1; DELETE FROM notifications',
  "' UNION SELECT id, email, email, email, email FROM users --",
  "%' OR '%'='",
  "\\' OR 1=1 --",
  "'||(SELECT token_hash FROM personal_access_tokens LIMIT 1)||'",
  "1' AND SLEEP(5) --",
  "'; SELECT pg_sleep(5); --",
  '$1',
  '?',
];

const multipartHeaders = (auth: Record<string, string>) => ({
  ...auth,
  'content-type': `multipart/form-data; boundary=${MULTIPART_BOUNDARY}`,
});

describe('SQL injection and path traversal', () => {
  let w: World;
  let tables: string[];
  let counts: Record<string, number>;

  async function rowCounts(): Promise<Record<string, number>> {
    const result: Record<string, number> = {};
    for (const table of tables) result[table] = await rowCount(w.t, table);
    return result;
  }

  async function expectDatabaseIntact(): Promise<void> {
    expect(await applicationTables(w.t)).toEqual(tables);
    expect(await rowCounts()).toEqual(counts);
  }

  beforeAll(async () => {
    w = await buildWorld({ loadGeoData: true });
    tables = await applicationTables(w.t);
    counts = await rowCounts();
  }, 180_000);
  afterAll(() => w?.t.close());

  const get = (url: string, headers: Record<string, string> = w.owner.auth) =>
    w.t.app.inject({ method: 'GET', url, headers });

  describe('ticket list filters q and category', () => {
    it.each(SQL_PAYLOADS)('q=%s matches literally: nothing, and the data is intact', async (payload) => {
      const res = await get(`/api/tickets?q=${encodeURIComponent(payload)}`);
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toEqual([]);
      expect(res.json().meta.total).toBe(0);
      const staff = await get(`/api/admin/tickets?q=${encodeURIComponent(payload)}`, w.admin.auth);
      expect(staff.statusCode).toBe(200);
      expect(staff.json().data).toEqual([]);
      await expectDatabaseIntact();
    });

    it.each(SQL_PAYLOADS)('category=%s is an exact match: nothing, and the data is intact', async (payload) => {
      const res = await get(`/api/tickets?category=${encodeURIComponent(payload)}`);
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toEqual([]);
      await expectDatabaseIntact();
    });

    it('treats LIKE wildcards in q as text, and a real category still filters', async () => {
      for (const wildcard of ['%', '_', '%%', '\\', '\\%']) {
        const res = await get(`/api/tickets?q=${encodeURIComponent(wildcard)}`);
        expect(res.statusCode).toBe(200);
        expect(res.json().meta.total).toBe(0);
      }
      const billing = await get('/api/tickets?category=billing');
      expect(billing.json().meta.total).toBe(2);
      const own = await get(`/api/tickets?q=${encodeURIComponent('Payment problem mine')}`);
      expect(own.json().meta.total).toBe(1);
      // The other user's ticket matches the words but is not the caller's.
      const theirs = await get(`/api/tickets?q=${encodeURIComponent('Payment problem theirs')}`);
      expect(theirs.json().meta.total).toBe(0);
    });

    it('answers 422 in the tickets form for a NUL character in q or category (PostgreSQL cannot compare it)', async () => {
      for (const field of ['q', 'category']) {
        const res = await get(`/api/tickets?${field}=a%00b`);
        expect(res.statusCode).toBe(422);
        expect(res.json()).toEqual({
          success: false,
          message: VALIDATION_MESSAGE.tickets,
          errors: { [field]: [`The ${field} format is invalid.`] },
        });
        const staff = await get(`/api/admin/tickets?${field}=%00`, w.admin.auth);
        expect(staff.statusCode).toBe(422);
      }
      await expectDatabaseIntact();
    });
  });

  describe('text PostgreSQL cannot store or compare', () => {
    // [what, method, url (owner's resources), body, form, field]
    const cases = (): Array<
      [string, 'POST' | 'PUT', string, Record<string, unknown>, 'assistant' | 'tickets', string]
    > => [
      ['chat message', 'POST', '/api/assistant/chat', { message: 'hello\u0000there' }, 'assistant', 'message'],
      [
        'feedback subject',
        'POST',
        '/api/assistant/feedback',
        { type: 'bug', subject: 'a\u0000', content: 'text' },
        'assistant',
        'subject',
      ],
      [
        'feedback content',
        'POST',
        '/api/assistant/feedback',
        { type: 'bug', subject: 'subject', content: '\u0000' },
        'assistant',
        'content',
      ],
      ['escalation reason', 'POST', '/api/assistant/escalate', { reason: 'help\u0000me' }, 'assistant', 'reason'],
      [
        'ticket subject',
        'POST',
        '/api/tickets',
        { subject: 'sub\u0000ject', message: 'a long enough message' },
        'tickets',
        'subject',
      ],
      [
        'ticket message',
        'POST',
        '/api/tickets',
        { subject: 'subject', message: 'a long enough\u0000 message' },
        'tickets',
        'message',
      ],
      [
        'ticket category',
        'POST',
        '/api/tickets',
        { subject: 'subject', message: 'a long enough message', category: '\u0000' },
        'tickets',
        'category',
      ],
      ['category change', 'PUT', `/api/tickets/${w.mine.tickets[0]}`, { category: 'x\u0000' }, 'tickets', 'category'],
      [
        'comment message',
        'POST',
        `/api/tickets/${w.mine.tickets[0]}/comments`,
        { message: 'comment\u0000text' },
        'tickets',
        'message',
      ],
      [
        'staff reply',
        'POST',
        `/api/admin/tickets/${w.mine.tickets[0]}/comments`,
        { message: 'reply\u0000text' },
        'tickets',
        'message',
      ],
    ];

    it("refuses a NUL character in every stored text field with 422 in the endpoint's form, on both dialects", async () => {
      for (const [what, method, url, payload, form, field] of cases()) {
        const headers = url.startsWith('/api/admin') ? w.admin.auth : w.owner.auth;
        const res = await w.t.app.inject({ method, url, headers, payload });
        expect(res.statusCode, what).toBe(422);
        const errors = { [field]: [`The ${field} format is invalid.`] };
        expect(res.json(), what).toEqual(
          form === 'assistant'
            ? { success: false, errors }
            : { success: false, message: VALIDATION_MESSAGE.tickets, errors },
        );
      }
      await expectDatabaseIntact();
    });

    it('refuses a NUL character in multipart ticket fields too, keeping no file', async () => {
      const { payload } = multipart(
        [
          ['subject', 'With\u0000NUL'],
          ['message', 'Please look at the attached file.'],
        ],
        [{ name: 'a.txt', content: TEXT_FILE, type: 'text/plain' }],
        MULTIPART_BOUNDARY,
      );
      const res = await w.t.app.inject({
        method: 'POST',
        url: '/api/tickets',
        headers: multipartHeaders(w.owner.auth),
        payload,
      });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors).toEqual({ subject: ['The subject format is invalid.'] });
      await expectDatabaseIntact();
      await expectStorageConsistent(w.t);
    });

    it('keeps other unusual text: RTL marks, emoji, Arabic and Persian letters, lone surrogates', async () => {
      const subject = 'پرداخت \u200fناموفق ي ك 😀 \ud83d';
      const res = await w.t.app.inject({
        method: 'POST',
        url: '/api/tickets',
        headers: w.owner.auth,
        payload: { subject, message: 'كيف حالك؟ یک پیام طولانی', category: '\u202ebilling' },
      });
      expect(res.statusCode).toBe(201);
      expect(res.json().data.subject.startsWith('پرداخت \u200fناموفق ي ك 😀')).toBe(true);
      const found = await get(`/api/tickets?category=${encodeURIComponent('\u202ebilling')}`);
      expect(found.json().meta.total).toBe(1);
      counts = await rowCounts();
    });
  });

  describe("numbers beyond the database's integer columns", () => {
    it('answers 422 for tag ids, assignee ids and filters above 2^31 - 1, and a 404 for such path ids', async () => {
      const big = 2_147_483_648;
      const created = await w.t.app.inject({
        method: 'POST',
        url: '/api/tickets',
        headers: w.owner.auth,
        payload: { subject: 'Tags', message: 'a long enough message', tags: [big] },
      });
      expect(created.statusCode).toBe(422);
      expect(Object.keys(created.json().errors)).toEqual(['tags.0']);
      const staff = await w.t.app.inject({
        method: 'PUT',
        url: `/api/admin/tickets/${w.mine.tickets[0]}`,
        headers: w.admin.auth,
        payload: { assignee_id: big },
      });
      expect(staff.statusCode).toBe(422);
      expect(Object.keys(staff.json().errors)).toEqual(['assignee_id']);
      const list = await get(`/api/admin/tickets?assignee_id=${big}`, w.admin.auth);
      expect(list.statusCode).toBe(422);
      expect(Object.keys(list.json().errors)).toEqual(['assignee_id']);
      const chat = await w.t.app.inject({
        method: 'POST',
        url: '/api/assistant/chat',
        headers: w.owner.auth,
        payload: { message: 'hi', conversation_id: big },
      });
      expect(chat.statusCode).toBe(422);
      await expectDatabaseIntact();
    });
  });

  describe('ids in paths', () => {
    const idPayloads = [
      "1' OR '1'='1",
      '1 OR 1=1',
      '1;DROP TABLE tickets',
      '1 UNION SELECT 1',
      '-1',
      '0',
      '99999999999999999999',
      '1e3',
      '0x1',
    ];

    it.each(idPayloads)('ticket id %s answers the ticket 404', async (id) => {
      const res = await get(`/api/tickets/${encodeURIComponent(id)}`);
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toMatch(TICKET_NOT_FOUND);
      await expectDatabaseIntact();
    });

    it.each(idPayloads)('conversation id %s answers the conversation 404', async (id) => {
      for (const method of ['GET', 'DELETE'] as const) {
        const res = await w.t.app.inject({
          method,
          url: `/api/assistant/conversations/${encodeURIComponent(id)}`,
          headers: w.owner.auth,
        });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ success: false, message: 'Conversation not found.' });
      }
      await expectDatabaseIntact();
    });

    it.each([...idPayloads, "00000000-0000-0000-0000-000000000000' OR '1'='1", "' OR user_id <> 0 --"])(
      'notification id %s answers 404 {message} and deletes nothing',
      async (id) => {
        for (const method of ['POST', 'DELETE'] as const) {
          const res = await w.t.app.inject({
            method,
            url: `/api/notifications/${encodeURIComponent(id)}`,
            headers: w.owner.auth,
          });
          expect(res.statusCode).toBe(404);
          expect(res.json()).toEqual({ message: 'Notification not found.' });
        }
        await expectDatabaseIntact();
      },
    );

    it.each(idPayloads)('attachment id %s answers 404 {success:false, message}', async (id) => {
      const [ticketId] = w.mine.attachments[0]!;
      const res = await get(`/api/tickets/${ticketId}/attachments/${encodeURIComponent(id)}/download`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ success: false, message: 'Attachment not found.' });
    });

    it("answers a path parameter over 200 characters with 414 and a broken %-escape with 400, in the platform body (not Fastify's)", async () => {
      const long = await get(`/api/tickets/${'1'.repeat(300)}`);
      expect(long.statusCode).toBe(414);
      expect(long.json()).toEqual({ success: false, message: 'The request is malformed.' });
      for (const url of ['/api/tickets/%ZZ', '/api/assistant/conversations/%E0%A4%A', '/api/notifications/%']) {
        const broken = await get(url);
        expect(broken.statusCode, url).toBe(400);
        expect(broken.json(), url).toEqual({ success: false, message: 'The request is malformed.' });
        expect(broken.headers['content-type']).toMatch(/^application\/json/);
      }
    });

    it.each(["1' OR '1'='1", '1|a OR 1=1', "1|' OR ''='", `1|${'a'.repeat(39)}'`, `1' --|${'a'.repeat(40)}`])(
      'bearer token %s is 401 Unauthenticated',
      async (token) => {
        const res = await get('/api/tickets', { authorization: `Bearer ${token}` });
        expect(res.statusCode).toBe(401);
        expect(res.json()).toEqual(UNAUTHENTICATED);
      },
    );
  });

  describe('geographic level and parentId', () => {
    it.each(SQL_PAYLOADS)('parentId %s gives an empty array', async (payload) => {
      for (const level of ['province', 'county', 'section', 'city', 'continent']) {
        const res = await get(`/api/geographic/${level}/${encodeURIComponent(payload)}/children`);
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual([]);
      }
      await expectDatabaseIntact();
    });

    it.each(SQL_PAYLOADS)('level %s answers 422 on level in the general form', async (payload) => {
      const res = await get(`/api/geographic/${encodeURIComponent(payload)}/1/children`);
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({
        success: false,
        message: VALIDATION_MESSAGE.general,
        errors: { level: ['The selected level is invalid.'] },
      });
    });

    it.each(["1' OR '1'='1", '1 OR 1=1', '-1', '1.5'])(
      'integer path id %s on /api/counties answers 422 in the general form',
      async (payload) => {
        const res = await get(`/api/counties/${encodeURIComponent(payload)}`);
        expect(res.statusCode).toBe(422);
        expect(res.json().message).toBe(VALIDATION_MESSAGE.general);
        expect(Object.keys(res.json().errors)).toEqual(['id']);
      },
    );

    it('still serves the real hierarchy after all of the above', async () => {
      const provinces = await get('/api/provinces');
      expect(provinces.statusCode).toBe(200);
      expect(provinces.json().data.length).toBeGreaterThan(20);
      const first = provinces.json().data[0].id;
      const counties = await get(`/api/geographic/province/${first}/children`);
      expect(counties.json().length).toBeGreaterThan(0);
    });
  });

  describe('attachment file names', () => {
    async function upload(filename: string, content = TEXT_FILE) {
      const { payload } = multipart(
        [
          ['subject', 'Traversal attempt'],
          ['message', 'Please look at the attached file.'],
        ],
        [{ name: filename, content, type: 'text/plain' }],
        MULTIPART_BOUNDARY,
      );
      return w.t.app.inject({ method: 'POST', url: '/api/tickets', headers: multipartHeaders(w.owner.auth), payload });
    }

    /** Where the name would land if it were used as a path under the attachment folders. */
    const traversalTargets = (name: string) =>
      ['attachments', 'attachments/.tmp', 'attachments/ab'].map((dir) =>
        path.resolve(w.t.dataDir, dir, name.replace(/\\/g, '/')),
      );

    it.each([
      ['../../etc/passwd.txt', 'passwd.txt'],
      ['..\\..\\windows\\win.txt', 'win.txt'],
      ['/etc/shadow.txt', 'shadow.txt'],
      ['....//....//x.txt', 'x.txt'],
      ['a\u0000b.txt', 'ab.txt'],
      ['%2e%2e%2fsecret.txt', '%2e%2e%2fsecret.txt'],
      ['نامه ي ك\u200f.txt', 'نامه ي ك\u200f.txt'],
    ])(
      'keeps %j as the name %j only, and the bytes under a random key inside DATA_DIR/attachments',
      async (sent, kept) => {
        const res = await upload(sent);
        expect(res.statusCode).toBe(201);
        const attachment = res.json().data.attachments[0];
        expect(attachment.file_name).toBe(kept);
        const row = await w.t.db
          .selectFrom('ticket_attachments')
          .select(['storage_key'])
          .where('id', '=', attachment.id)
          .executeTakeFirstOrThrow();
        const stored = path.join(w.t.dataDir, 'attachments', row.storage_key.slice(0, 2), row.storage_key);
        expect(path.relative(path.join(w.t.dataDir, 'attachments'), stored).startsWith('..')).toBe(false);
        expect(fs.readFileSync(stored)).toEqual(TEXT_FILE);
        const download = await get(`/api/tickets/${res.json().data.id}/attachments/${attachment.id}/download`);
        expect(download.statusCode).toBe(200);
        expect(download.rawPayload).toEqual(TEXT_FILE);
        expect(download.headers['content-disposition']).toMatch(
          /^attachment; filename="[^"/\\]*"; filename\*=UTF-8''[^/\\]*$/,
        );
        for (const target of traversalTargets(sent)) expect(fs.existsSync(target), target).toBe(false);
        await expectStorageConsistent(w.t);
        counts = await rowCounts();
      },
    );

    it.each(['../../etc/passwd', '..\\..\\x', '..', '.', '', 'passwd\u0000', 'x.txt\u0000.exe', 'x.php'])(
      'refuses %j with 422 on attachments.0 and keeps no file',
      async (name) => {
        const before = filesUnder(path.join(w.t.dataDir, 'attachments'));
        const res = await upload(name);
        expect(res.statusCode).toBe(422);
        expect(res.json()).toEqual({
          success: false,
          message: VALIDATION_MESSAGE.tickets,
          errors: { 'attachments.0': [expect.any(String)] },
        });
        expect(filesUnder(path.join(w.t.dataDir, 'attachments'))).toEqual(before);
        await expectDatabaseIntact();
      },
    );

    it('refuses an executable renamed to .png and keeps no file', async () => {
      const res = await upload('photo.png', Buffer.from('MZ\x90\x00 this is not an image'));
      expect(res.statusCode).toBe(422);
      expect(res.json().errors['attachments.0'][0]).toMatch(/must be a file of type/);
      const ok = await upload('photo.png', PNG_FILE);
      expect(ok.statusCode).toBe(201);
      counts = await rowCounts();
      await expectStorageConsistent(w.t);
    });
  });
});
