import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { buildTestApp, createTestDatabase, type TestApp } from '../helpers/app.js';
import type { TestUser } from '../helpers/factories.js';
import { appWithUsers, MEMBERS_AND_ADMIN } from '../helpers/fixtures.js';
import { FORBIDDEN } from '../helpers/staff-api.js';

describe('assistant conversations, welcome and feedback', () => {
  let t: TestApp, user: TestUser, other: TestUser, admin: TestUser;
  beforeAll(async () => ({ t, user, other, admin } = await appWithUsers(MEMBERS_AND_ADMIN)));
  afterAll(() => t.close());

  async function startConversation(who: TestUser, message: string, agent?: string): Promise<number> {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/assistant/chat',
      headers: who.auth,
      payload: { message, ...(agent ? { agent } : {}) },
    });
    expect(res.statusCode).toBe(200);
    return res.json().conversation_id;
  }

  const get = (who: TestUser | null, url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers: { ...(who?.auth ?? {}), ...headers } });

  it('documents every assistant route in the OpenAPI document', async () => {
    const doc = (await get(null, '/openapi.json')).json();
    const paths = Object.keys(doc.paths);
    for (const path of [
      '/api/assistant/welcome',
      '/api/assistant/chat',
      '/api/assistant/conversations',
      '/api/assistant/conversations/{id}',
      '/api/assistant/conversations/{id}/archive',
      '/api/assistant/feedback',
      '/api/assistant/escalate',
      '/api/admin/feedback',
    ]) {
      expect(paths).toContain(path);
    }
    expect(
      doc.paths['/api/assistant/chat'].post.requestBody.content['application/json'].schema.properties.message.maxLength,
    ).toBe(2000);
    expect(doc.paths['/api/assistant/chat'].post.security).toEqual([{ bearerAuth: [] }]);
  });

  describe('titles', () => {
    const cases: Array<[string, string]> = [
      ['How do I request a refund?', 'How do I request a refund?'],
      ['  spaced   out\nmessage  ', 'spaced out message'],
      ['x'.repeat(50), 'x'.repeat(50)],
      [
        'I would like to know how long it takes for my refund to arrive in my account',
        'I would like to know how long it takes for my…',
      ],
      ['y'.repeat(80), `${'y'.repeat(49)}…`],
      [
        'سلام، می‌خواستم بدانم بازگشت وجه سرمایه‌گذاری لغوشده چقدر طول می‌کشد و چه مدارکی لازم است',
        'سلام، می‌خواستم بدانم بازگشت وجه سرمایه‌گذاری…',
      ],
    ];
    for (const [message, title] of cases) {
      it(`titles "${message.slice(0, 30)}" as "${title.slice(0, 30)}"`, async () => {
        const id = await startConversation(user, message);
        const res = await get(user, `/api/assistant/conversations/${id}`);
        expect(res.json().conversation.title).toBe(title);
        expect(Array.from(res.json().conversation.title as string).length).toBeLessThanOrEqual(50);
      });
    }
  });

  describe('GET /api/assistant/conversations', () => {
    let lister: TestUser;
    let ids: number[];

    beforeAll(async () => {
      lister = await t.makeUser();
      ids = [];
      for (let i = 0; i < 5; i += 1) {
        ids.push(await startConversation(lister, `question number ${i}: how do I request a refund?`));
        await new Promise((r) => setTimeout(r, 5));
      }
      await startConversation(other, 'not yours');
    });

    it("lists only the caller's active conversations, newest activity first, with the summary fields", async () => {
      const res = await get(lister, '/api/assistant/conversations');
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.success).toBe(true);
      expect(body.conversations.map((c: { id: number }) => c.id)).toEqual([...ids].reverse());
      const first = body.conversations[0];
      expect(Object.keys(first).sort()).toEqual([
        'agent_type',
        'created_at',
        'id',
        'last_message',
        'status',
        'title',
        'updated_at',
      ]);
      expect(first).toMatchObject({
        title: 'question number 4: how do I request a refund?',
        agent_type: 'steward',
        status: 'active',
      });
      expect(first.last_message).toContain('refund');
      expect(body.pagination).toEqual({ current_page: 1, total: 5, per_page: 20, last_page: 1 });
    });

    it('moves a conversation to the top when a message is added', async () => {
      await t.app.inject({
        method: 'POST',
        url: '/api/assistant/chat',
        headers: lister.auth,
        payload: { message: 'again', conversation_id: ids[0] },
      });
      const res = await get(lister, '/api/assistant/conversations');
      expect(res.json().conversations[0].id).toBe(ids[0]);
      expect(res.json().conversations[0].last_message).not.toBe('again');
    });

    it('pages with per_page and page', async () => {
      const res = await get(lister, '/api/assistant/conversations?per_page=2&page=2');
      expect(res.json().conversations).toHaveLength(2);
      expect(res.json().pagination).toEqual({ current_page: 2, total: 5, per_page: 2, last_page: 3 });
      const beyond = await get(lister, '/api/assistant/conversations?per_page=2&page=9');
      expect(beyond.json().conversations).toEqual([]);
    });

    it('hides archived and deleted ones by default and lists them with the status filter', async () => {
      const owner = await t.makeUser();
      const kept = await startConversation(owner, 'kept');
      const archived = await startConversation(owner, 'archived');
      const deleted = await startConversation(owner, 'deleted');
      await t.app.inject({
        method: 'PUT',
        url: `/api/assistant/conversations/${archived}/archive`,
        headers: owner.auth,
      });
      await t.app.inject({ method: 'DELETE', url: `/api/assistant/conversations/${deleted}`, headers: owner.auth });
      const idsOf = async (query: string) =>
        (await get(owner, `/api/assistant/conversations${query}`))
          .json()
          .conversations.map((c: { id: number }) => c.id);
      expect(await idsOf('')).toEqual([kept]);
      expect(await idsOf('?status=active')).toEqual([kept]);
      expect(await idsOf('?status=archived')).toEqual([archived]);
      expect(await idsOf('?status=deleted')).toEqual([deleted]);
    });

    it('filters by agent; auto means any agent', async () => {
      const owner = await t.makeUser({ admin: true });
      const pilot = await startConversation(owner, 'investment returns', 'pilot');
      const guide = await startConversation(owner, 'where is it', 'guide');
      const idsOf = async (query: string) =>
        (await get(owner, `/api/assistant/conversations${query}`))
          .json()
          .conversations.map((c: { id: number }) => c.id);
      expect(await idsOf('?agent=pilot')).toEqual([pilot]);
      expect(await idsOf('?agent=guide')).toEqual([guide]);
      expect(await idsOf('?agent=engineer')).toEqual([]);
      expect(await idsOf('?agent=auto')).toEqual([guide, pilot]);
    });

    const invalid: Array<[string, Record<string, string[]>]> = [
      ['?per_page=51', { per_page: ['The per page must not be greater than 50.'] }],
      ['?per_page=0', { per_page: ['The per page must be at least 1.'] }],
      ['?per_page=abc', { per_page: ['The per page must be an integer.'] }],
      ['?page=0', { page: ['The page must be at least 1.'] }],
      ['?status=gone', { status: ['The selected status is invalid.'] }],
      ['?agent=captain', { agent: ['The selected agent is invalid.'] }],
    ];
    for (const [query, errors] of invalid) {
      it(`answers 422 for ${query}`, async () => {
        const res = await get(lister, `/api/assistant/conversations${query}`);
        expect(res.statusCode).toBe(422);
        expect(res.json()).toEqual({ success: false, errors });
      });
    }

    it('accepts per_page=50', async () => {
      expect((await get(lister, '/api/assistant/conversations?per_page=50')).statusCode).toBe(200);
    });

    it('answers 401 without a token', async () => {
      const res = await get(null, '/api/assistant/conversations');
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: 'Unauthenticated.' });
    });
  });

  describe('GET /api/assistant/conversations/{id}', () => {
    it('shows the conversation with its messages in chronological order', async () => {
      const id = await startConversation(user, 'How do I request a refund?');
      await t.app.inject({
        method: 'POST',
        url: '/api/assistant/chat',
        headers: user.auth,
        payload: { message: 'thanks', conversation_id: id },
      });
      const res = await get(user, `/api/assistant/conversations/${id}`);
      expect(res.statusCode).toBe(200);
      const { conversation } = res.json();
      expect(Object.keys(conversation).sort()).toEqual(['agent_type', 'created_at', 'id', 'messages', 'title']);
      expect(conversation).toMatchObject({ id, title: 'How do I request a refund?', agent_type: 'steward' });
      expect(conversation.messages.map((m: { role: string }) => m.role)).toEqual([
        'user',
        'assistant',
        'user',
        'assistant',
      ]);
      expect(conversation.messages[0]).toEqual({
        id: expect.any(Number),
        role: 'user',
        content: 'How do I request a refund?',
        created_at: expect.stringMatching(/Z$/),
        sources: [],
      });
      expect(conversation.messages[1].sources[0]).toEqual({
        id: 'payments.refund-request',
        title: 'How do I request a refund?',
      });
      expect(conversation.messages[2].content).toBe('thanks');
      // "thanks" matches no passage: the answer used none.
      expect(conversation.messages[3].sources).toEqual([]);
    });

    it('shows an answer saved before sources were kept with an empty list', async () => {
      const id = await startConversation(user, 'How do I request a refund?');
      await t.db.updateTable('assistant_messages').set({ sources: null }).where('conversation_id', '=', id).execute();
      const { conversation } = (await get(user, `/api/assistant/conversations/${id}`)).json();
      expect(conversation.messages.map((m: { sources: unknown }) => m.sources)).toEqual([[], []]);
    });

    it('still shows a deleted conversation to its owner', async () => {
      const id = await startConversation(user, 'to be deleted');
      await t.app.inject({ method: 'DELETE', url: `/api/assistant/conversations/${id}`, headers: user.auth });
      const res = await get(user, `/api/assistant/conversations/${id}`);
      expect(res.statusCode).toBe(200);
      expect(res.json().conversation.messages).toHaveLength(2);
    });

    it('answers 404 for an absent conversation and for a non-integer id', async () => {
      for (const id of ['999999', 'abc', '1.5', '-1', '0', '99999999999']) {
        const res = await get(user, `/api/assistant/conversations/${id}`);
        expect(res.statusCode, id).toBe(404);
        expect(res.json()).toEqual({ success: false, message: 'Conversation not found.' });
      }
    });

    it("answers 403 for another account's conversation", async () => {
      const id = await startConversation(other, 'private');
      const res = await get(user, `/api/assistant/conversations/${id}`);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ success: false, message: 'You do not have access to this conversation.' });
    });

    it('answers 401 without a token', async () => {
      expect((await get(null, '/api/assistant/conversations/1')).statusCode).toBe(401);
    });
  });

  for (const [method, suffix, status, message] of [
    ['DELETE', '', 'deleted', 'Conversation deleted.'],
    ['PUT', '/archive', 'archived', 'Conversation archived.'],
  ] as const) {
    describe(`${method} /api/assistant/conversations/{id}${suffix}`, () => {
      const call = (who: TestUser | null, id: number | string, headers: Record<string, string> = {}) =>
        t.app.inject({
          method,
          url: `/api/assistant/conversations/${id}${suffix}`,
          headers: { ...(who?.auth ?? {}), ...headers },
        });

      it(`sets the status to ${status} and keeps the record and its messages`, async () => {
        const id = await startConversation(user, 'status change');
        const res = await call(user, id);
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({ success: true, message });
        const row = await t.db
          .selectFrom('assistant_conversations')
          .select('status')
          .where('id', '=', id)
          .executeTakeFirstOrThrow();
        expect(row.status).toBe(status);
        const messages = await t.db
          .selectFrom('assistant_messages')
          .select('id')
          .where('conversation_id', '=', id)
          .execute();
        expect(messages).toHaveLength(2);
      });

      it('accepts an empty JSON body', async () => {
        const id = await startConversation(user, 'empty body');
        const res = await call(user, id, { 'content-type': 'application/json' });
        expect(res.statusCode).toBe(200);
      });

      it('answers 404 for an absent or non-integer id', async () => {
        for (const id of [999_999, 'abc']) {
          const res = await call(user, id);
          expect(res.statusCode).toBe(404);
          expect(res.json()).toEqual({ success: false, message: 'Conversation not found.' });
        }
      });

      it("answers 403 for another account's conversation and leaves it alone", async () => {
        const id = await startConversation(other, 'hands off');
        const res = await call(user, id);
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual({ success: false, message: 'You do not have access to this conversation.' });
        const row = await t.db
          .selectFrom('assistant_conversations')
          .select('status')
          .where('id', '=', id)
          .executeTakeFirstOrThrow();
        expect(row.status).toBe('active');
      });

      it('answers 401 without a token', async () => {
        const res = await call(null, 1);
        expect(res.statusCode).toBe(401);
        expect(res.json()).toEqual({ message: 'Unauthenticated.' });
      });
    });
  }

  describe('GET /api/assistant/welcome', () => {
    it('is public and gives the default message, conversation count, agents and provider', async () => {
      const total = Number(
        (
          await t.db
            .selectFrom('assistant_conversations')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
      const res = await get(null, '/api/assistant/welcome');
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.success).toBe(true);
      expect(body.message).toContain('platform assistant');
      expect(body.stats).toEqual({
        total_conversations: total,
        agents: [
          { id: 'engineer', name: 'Engineer', icon: '🔧', enabled: true },
          { id: 'pilot', name: 'Pilot', icon: '✈️', enabled: true },
          { id: 'steward', name: 'Steward', icon: '👨‍✈️', enabled: true },
          { id: 'guide', name: 'Guide', icon: '📖', enabled: true },
        ],
        provider: 'offline',
      });
    });

    it('counts a new conversation', async () => {
      const before = (await get(null, '/api/assistant/welcome')).json().stats.total_conversations;
      await startConversation(user, 'one more');
      expect((await get(null, '/api/assistant/welcome')).json().stats.total_conversations).toBe(before + 1);
    });

    it('names agents and greets in Persian for Accept-Language fa', async () => {
      const body = (await get(null, '/api/assistant/welcome', { 'accept-language': 'fa' })).json();
      expect(body.stats.agents.map((a: { name: string }) => a.name)).toEqual(['مهندس', 'خلبان', 'مهماندار', 'راهنما']);
      expect(body.message).toContain('دستیار');
    });

    it('uses ASSISTANT_WELCOME_MESSAGE, then ASSISTANT_WELCOME_FILE', async () => {
      const file = path.join(t.dataDir, 'welcome.txt');
      fs.writeFileSync(file, '  Welcome from a file.\n');
      const fromEnv = await buildTestApp({
        config: { ASSISTANT_WELCOME_MESSAGE: 'Welcome from env.', ASSISTANT_WELCOME_FILE: file },
      });
      const fromFile = await buildTestApp({ config: { ASSISTANT_WELCOME_FILE: file } });
      try {
        expect((await fromEnv.app.inject({ method: 'GET', url: '/api/assistant/welcome' })).json().message).toBe(
          'Welcome from env.',
        );
        expect((await fromFile.app.inject({ method: 'GET', url: '/api/assistant/welcome' })).json().message).toBe(
          'Welcome from a file.',
        );
      } finally {
        await fromEnv.close();
        await fromFile.close();
      }
    });

    it('refuses to start with a missing or empty welcome file', async () => {
      const empty = path.join(t.dataDir, 'empty.txt');
      fs.writeFileSync(empty, '  \n');
      for (const [file, error] of [
        [path.join(t.dataDir, 'missing.txt'), /ASSISTANT_WELCOME_FILE .*missing\.txt does not exist/],
        [empty, /ASSISTANT_WELCOME_FILE .*empty\.txt is empty/],
      ] as const) {
        const database = await createTestDatabase({ ASSISTANT_WELCOME_FILE: file, LOG_LEVEL: 'silent' });
        try {
          await expect(
            buildApp({
              config: database.config,
              database: database.handle,
              logger: false,
              loadGeoData: false,
              startWorkers: false,
            }).then((a) => a.ready()),
          ).rejects.toThrow(error);
        } finally {
          await database.destroy();
        }
      }
    });
  });

  describe('POST /api/assistant/feedback and GET /api/admin/feedback', () => {
    const send = (who: TestUser | null, payload: unknown, headers: Record<string, string> = {}) =>
      t.app.inject({
        method: 'POST',
        url: '/api/assistant/feedback',
        headers: { ...(who?.auth ?? {}), ...headers },
        payload: payload as object,
      });

    it('stores feedback with its user and answers 201 with feedback_id', async () => {
      const res = await send(user, {
        type: 'praise',
        subject: 'Great assistant',
        content: 'It answered my refund question.',
        rating: 5,
      });
      expect(res.statusCode).toBe(201);
      const body = res.json();
      expect(body).toEqual({ success: true, message: 'Thank you for your feedback.', feedback_id: expect.any(Number) });
      const row = await t.db
        .selectFrom('assistant_feedback')
        .selectAll()
        .where('id', '=', body.feedback_id)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({
        user_id: user.id,
        type: 'praise',
        subject: 'Great assistant',
        content: 'It answered my refund question.',
        rating: 5,
      });
    });

    it('accepts feedback without a rating and at the length limits', async () => {
      const res = await send(user, { type: 'other', subject: 's'.repeat(200), content: 'c'.repeat(2000) });
      expect(res.statusCode).toBe(201);
      const row = await t.db
        .selectFrom('assistant_feedback')
        .select('rating')
        .where('id', '=', res.json().feedback_id)
        .executeTakeFirstOrThrow();
      expect(row.rating).toBeNull();
    });

    const invalid: Array<[string, unknown, Record<string, string[]>]> = [
      [
        'an empty body',
        {},
        {
          type: ['The type field is required.'],
          subject: ['The subject field is required.'],
          content: ['The content field is required.'],
        },
      ],
      ['an unknown type', { type: 'rant', subject: 's', content: 'c' }, { type: ['The selected type is invalid.'] }],
      [
        'a subject over 200 characters',
        { type: 'bug', subject: 's'.repeat(201), content: 'c' },
        { subject: ['The subject must not be greater than 200 characters.'] },
      ],
      [
        'content over 2000 characters',
        { type: 'bug', subject: 's', content: 'c'.repeat(2001) },
        { content: ['The content must not be greater than 2000 characters.'] },
      ],
      [
        'a blank subject',
        { type: 'bug', subject: '   ', content: 'c' },
        { subject: ['The subject field is required.'] },
      ],
      [
        'a rating of 0',
        { type: 'bug', subject: 's', content: 'c', rating: 0 },
        { rating: ['The rating must be at least 1.'] },
      ],
      [
        'a rating of 6',
        { type: 'bug', subject: 's', content: 'c', rating: 6 },
        { rating: ['The rating must not be greater than 5.'] },
      ],
      [
        'a fractional rating',
        { type: 'bug', subject: 's', content: 'c', rating: 2.5 },
        { rating: ['The rating must be an integer.'] },
      ],
    ];
    for (const [name, payload, errors] of invalid) {
      it(`answers 422 for ${name}`, async () => {
        const res = await send(user, payload);
        expect(res.statusCode).toBe(422);
        expect(res.json()).toEqual({ success: false, errors });
      });
    }

    it('answers 401 without a token', async () => {
      const res = await send(null, { type: 'bug', subject: 's', content: 'c' });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: 'Unauthenticated.' });
    });

    it('lists feedback to admins, newest first, with the user, paginated and filtered by type', async () => {
      const author = await t.makeUser({ firstName: 'Fatemeh', lastName: 'Karimi' });
      const bug = (
        await send(author, { type: 'bug', subject: 'Broken', content: 'The page crashes.', rating: 2 })
      ).json().feedback_id;
      const idea = (
        await send(author, { type: 'feature_request', subject: 'Dark mode', content: 'Please add it.' })
      ).json().feedback_id;
      const all = await get(admin, '/api/admin/feedback?per_page=2');
      expect(all.statusCode).toBe(200);
      expect(all.json().data.map((f: { id: number }) => f.id)).toEqual([idea, bug]);
      expect(all.json().meta).toMatchObject({ current_page: 1, per_page: 2 });
      expect(all.json().meta.total).toBeGreaterThanOrEqual(2);
      const bugs = await get(admin, '/api/admin/feedback?type=bug');
      const first = bugs.json().data[0];
      expect(first).toEqual({
        id: bug,
        type: 'bug',
        subject: 'Broken',
        content: 'The page crashes.',
        rating: 2,
        user: { id: author.id, first_name: 'Fatemeh', last_name: 'Karimi', email: author.email },
        created_at: expect.stringMatching(/Z$/),
      });
      expect(bugs.json().data.every((f: { type: string }) => f.type === 'bug')).toBe(true);
    });

    it('keeps the feedback list from non-admins and anonymous callers', async () => {
      const res = await get(user, '/api/admin/feedback');
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual(FORBIDDEN);
      expect((await get(null, '/api/admin/feedback')).statusCode).toBe(401);
    });

    it('answers 422 for an unknown type filter', async () => {
      const res = await get(admin, '/api/admin/feedback?type=rant');
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({ success: false, errors: { type: ['The selected type is invalid.'] } });
    });
  });
});
