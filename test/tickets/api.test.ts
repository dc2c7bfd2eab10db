import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowIso } from '../../src/db/index.js';
import { insertTag } from '../../src/modules/tickets/repository.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import type { TestUser } from '../helpers/factories.js';
import { createTicketFor } from './helpers.js';

const HOUR = 3_600_000;

describe('tickets API', () => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    t = await buildTestApp();
    alice = await t.makeUser({ firstName: 'Alice' });
    bob = await t.makeUser({ firstName: 'Bob' });
  });
  afterAll(() => t.close());

  const post = (user: TestUser | null, payload: unknown, url = '/api/tickets') =>
    t.app.inject({ method: 'POST', url, headers: user?.auth ?? {}, payload: payload as object });

  describe('POST /api/tickets', () => {
    it('creates an open ticket and answers 201 with the full ticket', async () => {
      const tag = await insertTag(t.db, `billing-${Date.now()}`, nowIso());
      const res = await post(alice, {
        subject: 'Payment failed',
        message: 'My card was charged twice.',
        category: 'billing',
        priority: 'normal',
        tags: [tag.id],
      });
      expect(res.statusCode).toBe(201);
      const body = res.json();
      expect(body.success).toBe(true);
      expect(body.message).toBe('Ticket created successfully.');
      expect(body.data).toMatchObject({
        subject: 'Payment failed',
        message: 'My card was charged twice.',
        status: 'open',
        priority: 'normal',
        category: 'billing',
        assignee: null,
        resolved_at: null,
        tags: [{ id: tag.id, name: tag.name }],
        attachments: [],
        sla_status: 'on_time',
      });
      expect(body.data.tracking_code).toMatch(/^TK-[A-Z0-9]{8}$/);
      expect(Date.parse(body.data.sla_deadline) - Date.parse(body.data.created_at)).toBe(24 * HOUR);
    });

    it('gives distinct tracking codes', async () => {
      const codes = new Set<string>();
      for (let i = 0; i < 5; i++) codes.add((await createTicketFor(t, alice)).tracking_code);
      expect(codes.size).toBe(5);
    });

    it.each([
      ['URGENT: site is down', 'Nothing loads since this morning.', 'high', 4],
      ['سوال', 'این موضوع فوری است لطفا رسیدگی کنید', 'high', 4],
      ['A suggestion', 'Maybe add a dark mode to the dashboard.', 'low', 72],
      ['پیشنهاد', 'پیشنهاد می‌کنم گزارش ماهانه اضافه شود', 'low', 72],
      ['Question about fees', 'How are the monthly fees calculated?', 'normal', 24],
    ])('computes the priority from "%s" when omitted', async (subject, message, priority, hours) => {
      const res = await post(alice, { subject, message });
      expect(res.json().data.priority).toBe(priority);
      const { sla_deadline, created_at } = res.json().data;
      expect(Date.parse(sla_deadline) - Date.parse(created_at)).toBe(hours * HOUR);
    });

    it('keeps an explicit priority over the keywords', async () => {
      const res = await post(alice, {
        subject: 'Urgent emergency',
        message: 'Critical, please look asap.',
        priority: 'low',
      });
      expect(res.json().data.priority).toBe('low');
    });

    it('answers 401 without a token', async () => {
      const res = await post(null, { subject: 'x', message: 'long enough text' });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: 'Unauthenticated.' });
    });

    it.each([
      ['a missing subject', { message: 'long enough message' }, { subject: ['The subject field is required.'] }],
      [
        'an empty body',
        undefined,
        { subject: ['The subject field is required.'], message: ['The message field is required.'] },
      ],
      [
        'a subject over 255 characters',
        { subject: 'x'.repeat(256), message: 'long enough message' },
        { subject: ['The subject must not be greater than 255 characters.'] },
      ],
      [
        'a message under 10 characters',
        { subject: 'Hi', message: 'short' },
        { message: ['The message must be at least 10 characters.'] },
      ],
      [
        'an unknown priority',
        { subject: 'Hi', message: 'long enough message', priority: 'extreme' },
        { priority: ['The selected priority is invalid.'] },
      ],
      [
        'a non-integer tag',
        { subject: 'Hi', message: 'long enough message', tags: ['abc'] },
        { 'tags.0': ['The tags.0 must be an integer.'] },
      ],
      [
        'tags that are not an array',
        { subject: 'Hi', message: 'long enough message', tags: { a: 1 } },
        { tags: ['The tags must be an array.'] },
      ],
      [
        'a category over 255 characters',
        { subject: 'Hi', message: 'long enough message', category: 'c'.repeat(256) },
        { category: ['The category must not be greater than 255 characters.'] },
      ],
    ])('answers 422 in the tickets form for %s', async (_name, payload, errors) => {
      const res = await post(alice, payload);
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({ success: false, message: 'Validation error.', errors });
    });

    it('answers 422 on tags.N for a tag id that does not exist, and creates nothing', async () => {
      const tag = await insertTag(t.db, `known-${Date.now()}`, nowIso());
      const before = await t.db
        .selectFrom('tickets')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      const res = await post(alice, { subject: 'Hi', message: 'long enough message', tags: [tag.id, 999999] });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({
        success: false,
        message: 'Validation error.',
        errors: { 'tags.1': ['The selected tags.1 is invalid.'] },
      });
      const after = await t.db
        .selectFrom('tickets')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(after.n)).toBe(Number(before.n));
    });

    it('answers 400 with the spec body for malformed JSON', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/tickets',
        headers: { ...alice.auth, 'content-type': 'application/json' },
        payload: '{"subject":',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().success).toBe(false);
    });
  });

  describe('GET /api/tickets', () => {
    let carol: TestUser;
    beforeAll(async () => {
      carol = await t.makeUser();
      await createTicketFor(t, carol, {
        subject: 'Withdrawal pending',
        message: 'My withdrawal is stuck in review.',
        category: 'payments',
        priority: 'high',
      });
      await createTicketFor(t, carol, {
        subject: 'مشکل ورود',
        message: 'نمی‌توانم وارد حساب کاربری شوم.',
        category: 'account',
        priority: 'normal',
      });
      await createTicketFor(t, carol, {
        subject: '100% refund?',
        message: 'Can I get a full refund_now please?',
        category: 'payments',
        priority: 'low',
      });
      await createTicketFor(t, bob, {
        subject: 'Withdrawal of Bob',
        message: 'This is Bob and not Carol.',
        category: 'payments',
      });
    });
    const list = (query = '', user: TestUser = carol) =>
      t.app.inject({ method: 'GET', url: `/api/tickets${query}`, headers: user.auth });

    it("lists only the caller's tickets, newest first, with meta", async () => {
      const res = await list();
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.data.map((d: { subject: string }) => d.subject)).toEqual([
        '100% refund?',
        'مشکل ورود',
        'Withdrawal pending',
      ]);
      expect(body.meta).toEqual({ current_page: 1, last_page: 1, per_page: 15, total: 3 });
      expect(Object.keys(body.data[0]).sort()).toEqual(
        [
          'assignee',
          'category',
          'created_at',
          'id',
          'priority',
          'sla_status',
          'status',
          'subject',
          'tags',
          'tracking_code',
        ].sort(),
      );
    });

    it('filters by status, priority and exact category', async () => {
      expect((await list('?priority=high')).json().data).toHaveLength(1);
      expect((await list('?category=payments')).json().data).toHaveLength(2);
      expect((await list('?category=pay')).json().data).toHaveLength(0);
      expect((await list('?status=closed')).json().data).toHaveLength(0);
      expect((await list('?status=open')).json().data).toHaveLength(3);
    });

    it('searches tracking code, subject and message case-insensitively, Persian included', async () => {
      expect((await list('?q=WITHDRAWAL')).json().data.map((d: { subject: string }) => d.subject)).toEqual([
        'Withdrawal pending',
      ]);
      expect((await list(`?q=${encodeURIComponent('حساب کاربری')}`)).json().data).toHaveLength(1);
      const code = (await list()).json().data[1].tracking_code as string;
      expect((await list(`?q=${code.toLowerCase()}`)).json().data).toHaveLength(1);
    });

    it('matches % and _ literally in q', async () => {
      expect((await list(`?q=${encodeURIComponent('100%')}`)).json().data).toHaveLength(1);
      expect((await list(`?q=${encodeURIComponent('%')}`)).json().data).toHaveLength(1);
      expect((await list('?q=refund_now')).json().data).toHaveLength(1);
      expect((await list('?q=_')).json().data).toHaveLength(1);
    });

    it('paginates with per_page and page', async () => {
      const body = (await list('?per_page=2&page=2')).json();
      expect(body.data).toHaveLength(1);
      expect(body.meta).toEqual({ current_page: 2, last_page: 2, per_page: 2, total: 3 });
    });

    it('answers a page past the end with no rows and the real total', async () => {
      const body = (await list('?per_page=2&page=7')).json();
      expect(body.data).toEqual([]);
      expect(body.meta).toEqual({ current_page: 7, last_page: 2, per_page: 2, total: 3 });
    });

    it('gives each row its own tags, ordered by id, and [] to a ticket without tags', async () => {
      const dave = await t.makeUser();
      const second = await insertTag(t.db, `zeta-${Date.now()}`, nowIso());
      const first = await insertTag(t.db, `alpha-${Date.now()}`, nowIso());
      const lone = await insertTag(t.db, `lone-${Date.now()}`, nowIso());
      // Linked higher id first, so the order they were written in is not the order asked for.
      await post(dave, { subject: 'Two tags', message: 'long enough message', tags: [first.id, second.id] });
      await post(dave, { subject: 'No tags', message: 'long enough message' });
      await post(dave, { subject: 'One tag', message: 'long enough message', tags: [lone.id] });
      const rows = (await list('', dave)).json().data as Array<{ subject: string; tags: unknown }>;
      expect(rows.map((r) => [r.subject, r.tags])).toEqual([
        ['One tag', [{ id: lone.id, name: lone.name }]],
        ['No tags', []],
        [
          'Two tags',
          [
            { id: second.id, name: second.name },
            { id: first.id, name: first.name },
          ],
        ],
      ]);
    });

    it.each([
      ['?per_page=101', { per_page: ['The per page must not be greater than 100.'] }],
      ['?per_page=0', { per_page: ['The per page must be at least 1.'] }],
      ['?status=pending', { status: ['The selected status is invalid.'] }],
      ['?priority=urgent', { priority: ['The selected priority is invalid.'] }],
      ['?page=abc', { page: ['The page must be an integer.'] }],
    ])('answers 422 for %s', async (query, errors) => {
      const res = await list(query);
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({ success: false, message: 'Validation error.', errors });
    });

    it('answers 401 without a token', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/tickets' });
      expect(res.statusCode).toBe(401);
    });
  });

  describe('GET /api/tickets/stats', () => {
    it("counts the caller's tickets by status", async () => {
      const dave = await t.makeUser();
      await createTicketFor(t, dave);
      const closed = await createTicketFor(t, dave);
      await t.app.inject({ method: 'PUT', url: `/api/tickets/${closed.id}/close`, headers: dave.auth });
      const res = await t.app.inject({ method: 'GET', url: '/api/tickets/stats', headers: dave.auth });
      expect(res.json()).toEqual({ success: true, data: { total: 2, open: 1, in_progress: 0, closed: 1 } });
    });

    it('answers 401 without a token', async () => {
      expect((await t.app.inject({ method: 'GET', url: '/api/tickets/stats' })).statusCode).toBe(401);
    });
  });

  describe('ownership by email', () => {
    it('shows a ticket opened for the address before the account existed', async () => {
      const email = `later-${Date.now()}@example.com`;
      const { createTicket } = await import('../../src/modules/tickets/service.js');
      const created = await createTicket(t.app.deps, {
        owner: null,
        subject: 'Before signup',
        message: 'Opened for an address only.',
      });
      await t.db.updateTable('tickets').set({ email }).where('id', '=', created.id).execute();
      const erin = await t.makeUser({ email: email.toUpperCase() });
      const detail = await t.app.inject({ method: 'GET', url: `/api/tickets/${created.id}`, headers: erin.auth });
      expect(detail.statusCode).toBe(200);
      expect(detail.json().data.user).toEqual({ id: null, first_name: null, last_name: null, email });
      const listed = await t.app.inject({ method: 'GET', url: '/api/tickets', headers: erin.auth });
      expect(listed.json().data.map((d: { id: number }) => d.id)).toContain(created.id);
      const stats = await t.app.inject({ method: 'GET', url: '/api/tickets/stats', headers: erin.auth });
      expect(stats.json().data.total).toBe(1);
    });
  });

  it('documents every ticket route in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    for (const route of [
      '/api/tickets',
      '/api/tickets/stats',
      '/api/tickets/{id}',
      '/api/tickets/{id}/close',
      '/api/tickets/{id}/comments',
      '/api/tickets/{id}/attachments/{attachment_id}/download',
      '/api/admin/tickets',
      '/api/admin/tickets/{id}',
    ]) {
      expect(Object.keys(doc.paths)).toContain(route);
    }
    expect(doc.paths['/api/tickets'].post.responses['201']).toBeDefined();
  });

  describe('per-ticket endpoints of someone else', () => {
    let bobs: { id: number };
    beforeAll(async () => {
      bobs = await createTicketFor(t, bob);
    });
    const cases: Array<[string, 'GET' | 'PUT' | 'POST', (id: number | string) => string, object | undefined]> = [
      ['show', 'GET', (id) => `/api/tickets/${id}`, undefined],
      ['update', 'PUT', (id) => `/api/tickets/${id}`, { priority: 'high' }],
      ['close', 'PUT', (id) => `/api/tickets/${id}/close`, undefined],
      ['comment', 'POST', (id) => `/api/tickets/${id}/comments`, { message: 'hello there' }],
      ['download', 'GET', (id) => `/api/tickets/${id}/attachments/1/download`, undefined],
    ];
    for (const [name, method, url, payload] of cases) {
      it(`${name}: answers 404 with the model message for a ticket owned by someone else, and changes nothing`, async () => {
        const res = await t.app.inject({
          method,
          url: url(bobs.id),
          headers: alice.auth,
          ...(payload ? { payload } : {}),
        });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ message: `No query results for model [Ticket] ${bobs.id}` });
        const row = await t.db
          .selectFrom('tickets')
          .select(['status', 'priority'])
          .where('id', '=', bobs.id)
          .executeTakeFirstOrThrow();
        expect(row).toEqual({ status: 'open', priority: 'normal' });
      });
      it(`${name}: answers the same 404 for an id that does not exist`, async () => {
        const res = await t.app.inject({
          method,
          url: url(987654),
          headers: alice.auth,
          ...(payload ? { payload } : {}),
        });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ message: 'No query results for model [Ticket] 987654' });
      });
      it(`${name}: answers the ticket 404 for a non-integer id`, async () => {
        const res = await t.app.inject({
          method,
          url: url('abc'),
          headers: alice.auth,
          ...(payload ? { payload } : {}),
        });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ message: 'No query results for model [Ticket] abc' });
      });
      it(`${name}: answers 401 without a token`, async () => {
        const res = await t.app.inject({ method, url: url(bobs.id), ...(payload ? { payload } : {}) });
        expect(res.statusCode).toBe(401);
        expect(res.json()).toEqual({ message: 'Unauthenticated.' });
      });
    }
  });
});
