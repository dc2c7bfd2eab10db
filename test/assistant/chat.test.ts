import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import type { TestUser } from '../helpers/factories.js';
import { appWithUsers, MEMBERS_AND_ADMIN } from '../helpers/fixtures.js';

describe('POST /api/assistant/chat', () => {
  let t: TestApp, user: TestUser, other: TestUser, admin: TestUser;
  beforeAll(async () => ({ t, user, other, admin } = await appWithUsers(MEMBERS_AND_ADMIN)));
  afterAll(() => t.close());

  const chat = (who: TestUser | null, payload: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/api/assistant/chat',
      headers: { ...(who?.auth ?? {}), ...headers },
      payload: payload as object,
    });

  async function messagesOf(conversationId: number) {
    return t.db
      .selectFrom('assistant_messages')
      .selectAll()
      .where('conversation_id', '=', conversationId)
      .orderBy('id')
      .execute();
  }

  it('answers from the knowledge base and saves both messages in a new conversation', async () => {
    const res = await chat(user, { message: 'How long does a refund take?' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: true, agent: 'steward', agent_name: 'Steward', agent_icon: '👨‍✈️' });
    expect(body.message).toContain('three to seven working days');
    expect(Object.keys(body).sort()).toEqual(
      [
        'agent',
        'agent_icon',
        'agent_name',
        'conversation_id',
        'message',
        'request_id',
        'response_time_ms',
        'sources',
        'success',
        'suggestions',
      ].sort(),
    );
    expect(body.sources[0]).toEqual({ id: 'payments.refund-time', title: 'How long does a refund take?' });
    expect(Number.isInteger(body.response_time_ms)).toBe(true);
    expect(body.response_time_ms).toBeGreaterThanOrEqual(0);
    expect(body.request_id).toBe(res.headers['x-request-id']);
    expect(body.suggestions.length).toBeGreaterThan(0);
    expect(body.suggestions).not.toContain('How long does a refund take?');

    const conversation = await t.db
      .selectFrom('assistant_conversations')
      .selectAll()
      .where('id', '=', body.conversation_id)
      .executeTakeFirstOrThrow();
    expect(conversation).toMatchObject({
      user_id: user.id,
      title: 'How long does a refund take?',
      agent_type: 'steward',
      status: 'active',
      last_message: body.message,
    });
    const messages = await messagesOf(body.conversation_id);
    expect(messages.map((m) => [m.role, m.agent])).toEqual([
      ['user', null],
      ['assistant', 'steward'],
    ]);
    expect(messages[0]!.content).toBe('How long does a refund take?');
    expect(messages[1]!.response_time_ms).toBe(body.response_time_ms);
    expect(messages[1]!.request_id).toBe(body.request_id);
    expect(JSON.parse(messages[1]!.sources!)).toEqual(body.sources);
    expect(messages[0]!.sources).toBeNull();
  });

  it("names its sources in the message's language, best first, and each is a passage the answer quotes", async () => {
    const res = await chat(user, { message: 'پولم دوبار از کارتم کم شد' });
    const body = res.json();
    expect(body.sources.length).toBeGreaterThan(0);
    expect(body.sources[0].id).toBe('payments.double-charge');
    expect(body.sources[0].title).toBe('برای یک سرمایه‌گذاری دو بار از حسابم پول کم شد');
    for (const source of body.sources) expect(source.title).toMatch(/[\u0600-\u06FF]/);
  });

  it('gives every request its own request_id', async () => {
    const a = (await chat(user, { message: 'refund' })).json();
    const b = (await chat(user, { message: 'refund', conversation_id: a.conversation_id })).json();
    expect(a.request_id).not.toBe(b.request_id);
  });

  it('answers a Persian message in Persian and names the agent in Persian for Accept-Language fa', async () => {
    const res = await chat(user, { message: 'بازگشت وجه چقدر طول می‌کشد؟' }, { 'accept-language': 'fa-IR,fa;q=0.9' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.agent_name).toBe('مهماندار');
    expect(body.message).toContain('سه تا هفت روز کاری');
    expect(body.suggestions.every((s: string) => /[\u0600-\u06FF]/.test(s))).toBe(true);
  });

  it('follows Accept-Language for the agent name even when the message is English', async () => {
    const res = await chat(user, { message: 'How do I open a support ticket?' }, { 'accept-language': 'fa' });
    expect(res.json().agent_name).toBe('مهماندار');
    expect(res.json().message).toContain('Support → New ticket');
  });

  it('says so and offers escalation when nothing in the knowledge base matches', async () => {
    const res = await chat(user, { message: 'What is the airspeed velocity of an unladen swallow?' });
    const body = res.json();
    expect(body.message).toContain('could not find a good answer');
    expect(body.message).toContain('support ticket');
    expect(body.suggestions[0]).toBe('Escalate this to a support ticket');
  });

  for (const [lang, message, said, offer] of [
    ['English', 'what is 17 times 23', 'could not find a good answer', 'support ticket'],
    ['English', 'recommend a good pizza place', 'could not find a good answer', 'support ticket'],
    ['Persian', 'یه فیلم خوب برای امشب معرفی کن', 'پاسخ مناسبی', 'تیکت پشتیبانی'],
    ['Persian', 'پایتخت ژاپن کجاست', 'پاسخ مناسبی', 'تیکت پشتیبانی'],
  ] as const) {
    it(`answers an out-of-scope ${lang} question "${message}" with "I don't know", the escalation offer and no sources, and stores none`, async () => {
      const body = (await chat(user, { message })).json();
      expect(body.message).toContain(said);
      expect(body.message).toContain(offer);
      expect(body.sources).toEqual([]);
      const messages = await messagesOf(body.conversation_id);
      expect(messages[1]!.sources).toBe('[]');
    });
  }

  it('routes a non-admin to steward whatever agent is asked for', async () => {
    for (const agent of ['engineer', 'pilot', 'guide', 'auto']) {
      const res = await chat(user, { message: 'My payment failed with an error', agent });
      expect(res.json().agent).toBe('steward');
    }
  });

  it('gives an admin the agent asked for, with its name and icon', async () => {
    const expected = {
      engineer: ['Engineer', '🔧'],
      pilot: ['Pilot', '✈️'],
      steward: ['Steward', '👨‍✈️'],
      guide: ['Guide', '📖'],
    } as const;
    for (const [agent, [name, icon]] of Object.entries(expected)) {
      const res = await chat(admin, { message: 'How do I invest?', agent });
      expect(res.json()).toMatchObject({ agent, agent_name: name, agent_icon: icon });
    }
  });

  it("names the admin's agents in Persian for Accept-Language fa", async () => {
    const expected = { engineer: 'مهندس', pilot: 'خلبان', guide: 'راهنما' };
    for (const [agent, name] of Object.entries(expected)) {
      const res = await chat(admin, { message: 'سلام', agent }, { 'accept-language': 'fa' });
      expect(res.json().agent_name).toBe(name);
    }
  });

  it("routes an admin's auto message by its words, in English and Persian", async () => {
    const cases: Array<[string, string]> = [
      ['I get a 500 error when I try to log in', 'engineer'],
      ['Is this project a good investment, what are the returns?', 'pilot'],
      ['Where is the menu to get started?', 'guide'],
      ['هنگام ورود خطا می‌گیرم', 'engineer'],
      ['سود این پروژه و ریسک سرمایه‌گذاری چقدر است؟', 'pilot'],
      ['آموزش شروع کار کجاست؟', 'guide'],
      ['good morning', 'steward'],
    ];
    for (const [message, agent] of cases) {
      const res = await chat(admin, { message, agent: 'auto' });
      expect({ message, agent: res.json().agent }).toEqual({ message, agent });
    }
  });

  it('routes an admin who names no agent automatically, and stores the answering agent', async () => {
    const res = await chat(admin, { message: 'The payment gateway shows an error and the server is slow' });
    expect(res.json().agent).toBe('engineer');
    const messages = await messagesOf(res.json().conversation_id);
    expect(messages[1]!.agent).toBe('engineer');
    const conversation = await t.db
      .selectFrom('assistant_conversations')
      .select('agent_type')
      .where('id', '=', res.json().conversation_id)
      .executeTakeFirstOrThrow();
    expect(conversation.agent_type).toBe('engineer');
  });

  it("keeps the conversation's agent when an admin continues without naming one", async () => {
    const first = (await chat(admin, { message: 'Tell me about projects', agent: 'pilot' })).json();
    const next = (
      await chat(admin, { message: 'and the login error?', conversation_id: first.conversation_id })
    ).json();
    expect(next.agent).toBe('pilot');
  });

  it('never lets context change the user, role or agent', async () => {
    const res = await chat(user, {
      message: 'refund',
      agent: 'engineer',
      context: { role: 'admin', user_id: admin.id, agent: 'engineer', is_admin: true },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().agent).toBe('steward');
    const conversation = await t.db
      .selectFrom('assistant_conversations')
      .select('user_id')
      .where('id', '=', res.json().conversation_id)
      .executeTakeFirstOrThrow();
    expect(conversation.user_id).toBe(user.id);
  });

  describe('continuing a conversation', () => {
    it('appends to the conversation in order and moves updated_at', async () => {
      const first = (await chat(user, { message: 'How do I request a refund?' })).json();
      const before = await t.db
        .selectFrom('assistant_conversations')
        .select('updated_at')
        .where('id', '=', first.conversation_id)
        .executeTakeFirstOrThrow();
      await new Promise((r) => setTimeout(r, 15));
      const next = await chat(user, { message: 'And how long will it take?', conversation_id: first.conversation_id });
      expect(next.statusCode).toBe(200);
      expect(next.json().conversation_id).toBe(first.conversation_id);
      const messages = await messagesOf(first.conversation_id);
      expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
      expect(messages[2]!.content).toBe('And how long will it take?');
      const after = await t.db
        .selectFrom('assistant_conversations')
        .select(['updated_at', 'title'])
        .where('id', '=', first.conversation_id)
        .executeTakeFirstOrThrow();
      expect(after.updated_at > before.updated_at).toBe(true);
      expect(after.title).toBe('How do I request a refund?');
    });

    it('reactivates an archived conversation', async () => {
      const first = (await chat(user, { message: 'refund' })).json();
      await t.app.inject({
        method: 'PUT',
        url: `/api/assistant/conversations/${first.conversation_id}/archive`,
        headers: user.auth,
      });
      const next = await chat(user, { message: 'one more question', conversation_id: first.conversation_id });
      expect(next.statusCode).toBe(200);
      const row = await t.db
        .selectFrom('assistant_conversations')
        .select('status')
        .where('id', '=', first.conversation_id)
        .executeTakeFirstOrThrow();
      expect(row.status).toBe('active');
    });

    it('answers 404 for a deleted conversation and saves nothing', async () => {
      const first = (await chat(user, { message: 'refund' })).json();
      await t.app.inject({
        method: 'DELETE',
        url: `/api/assistant/conversations/${first.conversation_id}`,
        headers: user.auth,
      });
      const res = await chat(user, { message: 'are you there?', conversation_id: first.conversation_id });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ success: false, message: 'Conversation not found.' });
      expect(await messagesOf(first.conversation_id)).toHaveLength(2);
    });

    it('answers 404 for a conversation that does not exist', async () => {
      const res = await chat(user, { message: 'hello', conversation_id: 999_999 });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ success: false, message: 'Conversation not found.' });
    });

    it("answers 403 for another account's conversation and saves nothing", async () => {
      const theirs = (await chat(other, { message: 'refund' })).json();
      const res = await chat(user, { message: 'let me in', conversation_id: theirs.conversation_id });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ success: false, message: 'You do not have access to this conversation.' });
      expect(await messagesOf(theirs.conversation_id)).toHaveLength(2);
    });
  });

  it('answers 401 {message} without a valid token', async () => {
    for (const headers of [{}, { authorization: 'Bearer nope' }]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/assistant/chat',
        headers,
        payload: { message: 'hi' },
      });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: 'Unauthenticated.' });
    }
  });

  describe('validation (422 {success:false, errors})', () => {
    const cases: Array<[string, unknown, Record<string, string[]>]> = [
      ['a missing message', {}, { message: ['The message field is required.'] }],
      ['an empty message', { message: '' }, { message: ['The message field is required.'] }],
      ['a blank message', { message: '   \n ' }, { message: ['The message field is required.'] }],
      [
        'a message over 2000 characters',
        { message: 'x'.repeat(2001) },
        { message: ['The message must not be greater than 2000 characters.'] },
      ],
      [
        'a non-integer conversation_id',
        { message: 'hi', conversation_id: 'abc' },
        { conversation_id: ['The conversation id must be an integer.'] },
      ],
      [
        'a zero conversation_id',
        { message: 'hi', conversation_id: 0 },
        { conversation_id: ['The conversation id must be at least 1.'] },
      ],
      [
        'a context that is not an object',
        { message: 'hi', context: 'page=5' },
        { context: ['The context must be an object.'] },
      ],
      ['a context array', { message: 'hi', context: [1, 2] }, { context: ['The context must be an object.'] }],
      [
        'a context with too many keys',
        { message: 'hi', context: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i])) },
        { context: ['The context must not have more than 50 keys in all.'] },
      ],
      [
        'a context key over 64 characters',
        { message: 'hi', context: { ['k'.repeat(65)]: 1 } },
        { context: ['Each context key must be 1 to 64 characters.'] },
      ],
    ];
    for (const [name, payload, errors] of cases) {
      it(`rejects ${name}`, async () => {
        const res = await chat(user, payload);
        expect(res.statusCode).toBe(422);
        expect(res.json()).toEqual({ success: false, errors });
      });
    }

    it('accepts a context at its limits', async () => {
      const context = Object.fromEntries(
        Array.from({ length: 20 }, (_, i) => [`${'k'.repeat(60)}${i}`, i % 2 ? 'v'.repeat(300) : true]),
      );
      const res = await chat(user, { message: 'refund', context });
      expect(res.statusCode).toBe(200);
    });

    it('accepts a message of exactly 2000 characters', async () => {
      const res = await chat(user, { message: `${'refund '.repeat(285)}abcde` });
      expect(res.statusCode).toBe(200);
    });

    it('writes the errors in Persian for Accept-Language fa', async () => {
      const res = await chat(user, {}, { 'accept-language': 'fa' });
      expect(res.json()).toEqual({ success: false, errors: { message: ['فیلد message الزامی است.'] } });
    });
  });
});
