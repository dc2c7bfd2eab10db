// The chat as members really write: Persian in Latin letters, follow-ups in a conversation, a
// vague question on a page, two questions in one message. Each behaviour is checked against its
// control (the same message alone, or without the page), so the test fails if the feature does
// nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import type { TestUser } from '../helpers/factories.js';
import { appWithUsers, MEMBERS_AND_ADMIN } from '../helpers/fixtures.js';

const PERSIAN = /[\u0600-\u06FF]/;

describe('POST /api/assistant/chat, read the way members write', () => {
  let t: TestApp, user: TestUser, other: TestUser;
  beforeAll(async () => ({ t, user, other } = await appWithUsers(MEMBERS_AND_ADMIN)));
  afterAll(() => t.close());

  const chat = async (who: TestUser, payload: object) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/assistant/chat', headers: who.auth, payload });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as {
      message: string;
      conversation_id: number;
      sources: Array<{ id: string; title: string }>;
      suggestions: string[];
    };
  };

  describe('Persian typed in Latin letters', () => {
    it('answers in Persian with the Persian passage as its source, and stores it', async () => {
      const body = await chat(user, { message: 'salam, password ro yadam rafte chikar konam?' });
      expect(body.sources).toEqual([
        { id: 'accounts.password', title: 'رمز عبورم را فراموش کرده‌ام، چطور وارد حسابم شوم؟' },
      ]);
      expect(body.message).toMatch(PERSIAN);
      expect(body.message).toContain('فراموشی رمز');
      const shown = (
        await t.app.inject({
          method: 'GET',
          url: `/api/assistant/conversations/${body.conversation_id}`,
          headers: user.auth,
        })
      ).json();
      expect(shown.conversation.messages[1].sources).toEqual(body.sources);
    });

    it('reads spellings that vary (7 for h, doubled vowels, a dropped vowel) as the same words', async () => {
      for (const message of ['refund kei be 7esabam miad?', 'refund key be hesaabam miaad', 'rfnd kei be hesabam miad'])
        expect((await chat(user, { message })).sources[0]?.id, message).toBe('payments.refund-time');
    });

    it('says "I don\'t know" in Persian to small talk typed in Latin letters', async () => {
      const body = await chat(user, { message: 'ye joke bahal begoo hoselam sar rafte' });
      expect(body.sources).toEqual([]);
      expect(body.message).toMatch(PERSIAN);
    });

    it('keeps an English question English', async () => {
      const body = await chat(user, { message: 'too many wrong password attempts, how long must i wait?' });
      expect(body.sources[0]?.id).toBe('accounts.password');
      expect(body.message).not.toMatch(PERSIAN);
    });
  });

  describe('follow-ups', () => {
    it('answers a follow-up with the passage the conversation points to, where the same message alone gets another', async () => {
      const first = await chat(user, { message: 'How do I request a refund?' });
      expect(first.sources[0]?.id).toBe('payments.refund-request');
      const followUp = await chat(user, {
        message: 'and how long will it take?',
        conversation_id: first.conversation_id,
      });
      expect(followUp.sources.map((s) => s.id)).toEqual(['payments.refund-time']);
      const alone = await chat(user, { message: 'and how long will it take?' });
      expect(alone.sources[0]?.id).not.toBe('payments.refund-time');
    });

    it('follows a Persian conversation, and a Finglish one, each against its control', async () => {
      const first = await chat(user, { message: 'میخوام به پشتیبانی پیام بدم، تیکت از کجا ثبت کنم؟' });
      expect(first.sources[0]?.id).toBe('tickets.open');
      const followUp = await chat(user, { message: 'میشه عکس هم بذارم تهش؟', conversation_id: first.conversation_id });
      expect(followUp.sources[0]?.id).toBe('tickets.attachments');
      expect((await chat(user, { message: 'میشه عکس هم بذارم تهش؟' })).sources).toEqual([]);

      const start = await chat(user, { message: 'mikham pool ro az proje pas begiram, refund chetori bezanam' });
      expect(start.sources[0]?.id).toBe('payments.refund-request');
      const next = await chat(user, { message: 'bad az ta2id chand rooz?', conversation_id: start.conversation_id });
      expect(next.sources[0]?.id).toBe('payments.refund-time');
      expect(next.message).toMatch(PERSIAN);
      expect((await chat(user, { message: 'bad az ta2id chand rooz?' })).sources[0]?.id).not.toBe(
        'payments.refund-time',
      );
    });

    it("reads only the caller's own conversation: another account's conversation id answers 403 and nothing of it is used", async () => {
      const first = await chat(other, { message: 'How do I request a refund?' });
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/assistant/chat',
        headers: user.auth,
        payload: { message: 'and how long will it take?', conversation_id: first.conversation_id },
      });
      expect(res.statusCode).toBe(403);
    });

    it('keeps "I don\'t know" when neither the message nor the conversation helps', async () => {
      const first = await chat(user, { message: 'How do I request a refund?' });
      const followUp = await chat(user, {
        message: 'who won the football match last night',
        conversation_id: first.conversation_id,
      });
      expect(followUp.sources).toEqual([]);
    });
  });

  describe('the page', () => {
    const refunds = { page: { module: 'wallet', route: '/wallet/refunds' } };

    it('answers a vague question on the refunds page about refunds, where without the page it does not know', async () => {
      const onPage = await chat(user, { message: 'why is this still pending?', context: refunds });
      expect(onPage.sources.map((s) => s.id)).toEqual(['payments.refund-time']);
      const without = await chat(user, { message: 'why is this still pending?' });
      expect(without.sources).toEqual([]);
    });

    it('matches a route with ids to the passage listed with placeholders', async () => {
      const byId = await chat(user, {
        message: 'where do i get a pdf of this',
        context: { page: { module: 'investments', route: '/investments/42' } },
      });
      expect(byId.sources[0]?.id).toBe('payments.receipt');
    });

    it("reads the older script's page, which names a route_name and a module but no route, by its module", async () => {
      const page = { route_name: 'support.tickets.show', module: 'support', resource_id: 7 };
      expect((await chat(user, { message: 'what now, do i wait here', context: { page } })).sources[0]?.id).toBe(
        'tickets.sla',
      );
      expect((await chat(user, { message: 'what now, do i wait here' })).sources).toEqual([]);
    });

    it('never overrides a clear question', async () => {
      const body = await chat(user, { message: 'How do I open a support ticket?', context: refunds });
      expect(body.sources[0]?.id).toBe('tickets.open');
    });

    it('does not answer small talk because of the page', async () => {
      const body = await chat(user, { message: 'who won the football match last night', context: refunds });
      expect(body.sources).toEqual([]);
    });
  });

  describe('long messages', () => {
    it('answers two questions with both passages', async () => {
      const body = await chat(user, {
        message:
          'Hi! I moved last month and I am still getting used to the new place. How do I change my saved address? Also, how long does a refund take?',
      });
      expect(body.sources.map((s) => s.id)).toEqual(['address.change', 'payments.refund-time']);
      expect(body.message).toContain('Profile → Address');
      expect(body.message).toContain('three to seven working days');
      expect(body.suggestions).not.toContain('How long does a refund take?');
    });

    it('answers a 2,000-character message of many tiny questions, or of Latin letters no word fits, like any other', async () => {
      for (const message of ['how is it? '.repeat(181).trim(), 'qzx vbn mikham '.repeat(133).trim()]) {
        expect(message.length).toBeLessThanOrEqual(2000);
        const body = await chat(user, { message });
        expect(Array.isArray(body.sources)).toBe(true);
      }
    });

    it('finds the question inside a story', async () => {
      const body = await chat(user, {
        message:
          'hello, i have been a member for two years and invested in three farms, the last one in the north was ' +
          'lovely and my kids loved the photos. yesterday my card payment went through twice for the same project. will i get the second one back?',
      });
      expect(body.sources[0]?.id).toBe('payments.double-charge');
    });
  });
});
