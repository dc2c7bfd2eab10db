import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { redisUrl, requireRedis } from '../helpers/redis.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import type { TestUser } from '../helpers/factories.js';
import { appWithUsers } from '../helpers/fixtures.js';

const redisAvailable = await requireRedis('the Redis escalate throttle tests');

let nextIp = 1;
/** A client address of its own for each test, so the throttle budgets never mix. */
const freshIp = () => `10.77.${Math.floor(nextIp / 250)}.${(nextIp++ % 250) + 1}`;

describe('POST /api/assistant/escalate', () => {
  let t: TestApp, user: TestUser, other: TestUser;
  beforeAll(
    async () =>
      ({ t, user, other } = await appWithUsers({ user: { firstName: 'Sara', lastName: 'Ahmadi' }, other: {} })),
  );
  afterAll(() => t.close());

  const escalate = (who: TestUser | null, payload?: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/api/assistant/escalate',
      remoteAddress: freshIp(),
      headers: { ...(who?.auth ?? {}), ...headers },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  async function conversationOf(who: TestUser, messages: string[]): Promise<number> {
    let id: number | undefined;
    for (const message of messages) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/assistant/chat',
        headers: who.auth,
        payload: { message, ...(id ? { conversation_id: id } : {}) },
      });
      id = res.json().conversation_id;
    }
    return id!;
  }

  const ticket = (id: number) => t.db.selectFrom('tickets').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('creates a ticket owned by the signed-in caller from the conversation, with title, reason and transcript', async () => {
    const id = await conversationOf(user, ['How do I request a refund?', 'It has been two weeks']);
    const res = await escalate(user, { conversation_id: id, reason: 'The refund never arrived' });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toEqual({
      success: true,
      message: 'Your conversation has been escalated to a support ticket.',
      ticket_id: expect.any(Number),
    });
    const row = await ticket(body.ticket_id);
    expect(row).toMatchObject({
      user_id: user.id,
      email: user.email,
      subject: 'How do I request a refund?',
      source: 'assistant',
      status: 'open',
    });
    expect(row.message).toContain('The refund never arrived');
    expect(row.message).toContain('User: How do I request a refund?');
    expect(row.message).toContain('User: It has been two weeks');
    expect(row.message).toContain('Assistant (Steward):');
    expect(['low', 'normal', 'high']).toContain(row.priority);
    const conversation = await t.db
      .selectFrom('assistant_conversations')
      .select('escalated_ticket_id')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(conversation.escalated_ticket_id).toBe(body.ticket_id);
  });

  it('returns the same ticket with 200 when the conversation is escalated again', async () => {
    const id = await conversationOf(user, ['payment failed']);
    const first = await escalate(user, { conversation_id: id });
    const again = await escalate(null, { conversation_id: id, reason: 'still waiting' });
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({
      success: true,
      message: 'This conversation was already escalated; here is its support ticket.',
      ticket_id: first.json().ticket_id,
    });
    const count = await t.db
      .selectFrom('tickets')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('subject', '=', 'payment failed')
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1);
  });

  it('makes one ticket when the same conversation is escalated twice at once', async () => {
    const id = await conversationOf(user, ['double click on escalate']);
    const [a, b] = await Promise.all([
      escalate(user, { conversation_id: id }),
      escalate(user, { conversation_id: id }),
    ]);
    expect(a.json().ticket_id).toBe(b.json().ticket_id);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 201]);
  });

  it("gives an anonymous escalation of a conversation to the conversation's owner", async () => {
    const id = await conversationOf(other, ['where is my receipt']);
    const res = await escalate(null, { conversation_id: id });
    expect(res.statusCode).toBe(201);
    expect((await ticket(res.json().ticket_id)).user_id).toBe(other.id);
  });

  it('treats an invalid token as anonymous', async () => {
    const id = await conversationOf(other, ['token trouble']);
    const res = await escalate(null, { conversation_id: id }, { authorization: 'Bearer nope' });
    expect(res.statusCode).toBe(201);
    expect((await ticket(res.json().ticket_id)).user_id).toBe(other.id);
  });

  it("refuses a signed-in caller another account's conversation with 403", async () => {
    const id = await conversationOf(other, ['my private question']);
    const res = await escalate(user, { conversation_id: id });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ success: false, message: 'You do not have access to this conversation.' });
    const conversation = await t.db
      .selectFrom('assistant_conversations')
      .select('escalated_ticket_id')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(conversation.escalated_ticket_id).toBeNull();
  });

  it('makes an ownerless ticket from the reason without a conversation or token, a new one each time', async () => {
    const first = await escalate(null, { reason: 'I cannot sign in and nobody answers the phone' });
    const second = await escalate(null, { reason: 'I cannot sign in and nobody answers the phone' });
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(201);
    expect(second.json().ticket_id).not.toBe(first.json().ticket_id);
    const row = await ticket(first.json().ticket_id);
    expect(row).toMatchObject({
      user_id: null,
      subject: 'I cannot sign in and nobody answers the phone',
      source: 'assistant',
    });
    expect(row.message).toContain('I cannot sign in and nobody answers the phone');
  });

  it("gives a signed-in caller's escalation without a conversation to the caller", async () => {
    const res = await escalate(user, {});
    expect(res.statusCode).toBe(201);
    expect(await ticket(res.json().ticket_id)).toMatchObject({
      user_id: user.id,
      subject: 'Escalation from the assistant',
    });
  });

  it('accepts a request with no body at all', async () => {
    const res = await escalate(null);
    expect(res.statusCode).toBe(201);
    expect((await ticket(res.json().ticket_id)).user_id).toBeNull();
  });

  const invalid: Array<[string, unknown, Record<string, string[]>]> = [
    [
      'an unknown conversation_id',
      { conversation_id: 999_999 },
      { conversation_id: ['The selected conversation id is invalid.'] },
    ],
    [
      'a non-integer conversation_id',
      { conversation_id: 'abc' },
      { conversation_id: ['The conversation id must be an integer.'] },
    ],
    [
      'a zero conversation_id',
      { conversation_id: 0 },
      { conversation_id: ['The conversation id must be at least 1.'] },
    ],
    [
      'a reason over 2000 characters',
      { reason: 'r'.repeat(2001) },
      { reason: ['The reason must not be greater than 2000 characters.'] },
    ],
    ['a reason that is not a string', { reason: { text: 'x' } }, { reason: ['The reason must be a string.'] }],
  ];
  for (const [name, payload, errors] of invalid) {
    it(`answers 422 for ${name}`, async () => {
      const res = await escalate(null, payload);
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({ success: false, errors });
    });
  }

  describe('throttle in memory', () => {
    it('lets 30 requests a minute through per IP and answers the 31st with 429 {message} and Retry-After', async () => {
      const ip = freshIp();
      const call = (remoteAddress: string) =>
        t.app.inject({
          method: 'POST',
          url: '/api/assistant/escalate',
          remoteAddress,
          payload: { conversation_id: 999_999 },
        });
      for (let i = 0; i < 30; i += 1) expect((await call(ip)).statusCode).toBe(422);
      const limited = await call(ip);
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toEqual({ message: 'Too Many Attempts.' });
      const retryAfter = Number(limited.headers['retry-after']);
      expect(Number.isInteger(retryAfter)).toBe(true);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(60);
      // Another address has its own budget.
      expect((await call(freshIp())).statusCode).toBe(422);
    });

    it('applies whatever the platform default is, and ignores X-Forwarded-For unless TRUST_PROXY says so', async () => {
      const strict = await buildTestApp({ config: { RATE_LIMIT_PER_MINUTE: 1000 } });
      try {
        const call = (xff: string) =>
          strict.app.inject({
            method: 'POST',
            url: '/api/assistant/escalate',
            remoteAddress: '10.9.9.9',
            headers: { 'x-forwarded-for': xff },
            payload: { conversation_id: 999_999 },
          });
        for (let i = 0; i < 30; i += 1) await call(`192.0.2.${i + 1}`);
        expect((await call('192.0.2.200')).statusCode).toBe(429);
      } finally {
        await strict.close();
      }
    });

    it('keys on X-Forwarded-For when TRUST_PROXY is true', async () => {
      const proxied = await buildTestApp({ config: { TRUST_PROXY: true } });
      try {
        const call = (xff: string) =>
          proxied.app.inject({
            method: 'POST',
            url: '/api/assistant/escalate',
            remoteAddress: '10.9.9.9',
            headers: { 'x-forwarded-for': xff },
            payload: { conversation_id: 999_999 },
          });
        for (let i = 0; i < 30; i += 1) expect((await call('198.51.100.7')).statusCode).toBe(422);
        expect((await call('198.51.100.7')).statusCode).toBe(429);
        expect((await call('198.51.100.8')).statusCode).toBe(422);
      } finally {
        await proxied.close();
      }
    });
  });

  describe.skipIf(!redisAvailable)('throttle shared through Redis', () => {
    it('gives two app instances on one Redis a single budget of 30 per IP', async () => {
      const prefix = `test-assistant-${randomUUID()}:`;
      const config = { REDIS_URL: redisUrl, REDIS_KEY_PREFIX: prefix };
      const a = await buildTestApp({ config });
      const b = await buildTestApp({ config });
      const cleaner = new Redis(redisUrl);
      try {
        // Requests sent before an instance's Redis connection is up are let through uncounted
        // (the limiter fails open), so wait for both connections.
        for (const instance of [a, b]) {
          const redis = instance.app.deps.redis!;
          if (redis.status !== 'ready') await new Promise((resolve) => redis.once('ready', resolve));
        }
        const ip = freshIp();
        const call = (app: TestApp) =>
          app.app.inject({
            method: 'POST',
            url: '/api/assistant/escalate',
            remoteAddress: ip,
            payload: { conversation_id: 999_999 },
          });
        for (let i = 0; i < 15; i += 1) {
          expect((await call(a)).statusCode).toBe(422);
          expect((await call(b)).statusCode).toBe(422);
        }
        const limitedA = await call(a);
        const limitedB = await call(b);
        expect(limitedA.statusCode).toBe(429);
        expect(limitedB.statusCode).toBe(429);
        expect(limitedB.json()).toEqual({ message: 'Too Many Attempts.' });
        expect(Number(limitedB.headers['retry-after'])).toBeGreaterThan(0);
        const keys = await cleaner.keys(`${prefix}*`);
        expect(keys.some((k) => k.includes('/api/assistant/escalate') && k.includes(ip))).toBe(true);
      } finally {
        const keys = await cleaner.keys(`${prefix}*`);
        if (keys.length > 0) await cleaner.del(...keys);
        cleaner.disconnect();
        await a.close();
        await b.close();
      }
    });
  });
});
