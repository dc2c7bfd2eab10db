// Feedback on one assistant answer (POST /api/assistant/messages/{id}/feedback) and the questions
// nobody answered (GET and PUT /api/admin/assistant/gaps), over real sockets against the built
// server on the database under test, every answer checked against the OpenAPI document: the owner
// rates once (a second call replaces), anyone else gets the assistant's 404, every validation rule
// in the assistant's 422 form; members' unanswered or rated-down questions grouped by what they
// ask in each language, staff's left out, members refused, decisions closing a group until it is
// asked again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userWithToken, type TestUser } from '../helpers/factories.js';
import { FORBIDDEN } from '../helpers/staff-api.js';
import { DocumentServer } from '../kb-files/server.js';

const s = new DocumentServer();
let other: TestUser;
beforeAll(async () => {
  await s.start();
  other = await userWithToken(s.database.db);
}, 180_000);
afterAll(() => s.stop());

/** Asks in a new conversation; the ids of the user's message and of the answer. */
async function ask(message: string, auth: Record<string, string>): Promise<{ question: number; answer: number }> {
  const chat = await s.call('POST', '/api/assistant/chat', { auth, json: { message } });
  expect(chat.status).toBe(200);
  const { body } = await s.call('GET', `/api/assistant/conversations/${chat.body.conversation_id}`, { auth });
  const [question, answer] = body.conversation.messages as Array<{ id: number; role: string }>;
  expect([question!.role, answer!.role]).toEqual(['user', 'assistant']);
  return { question: question!.id, answer: answer!.id };
}

const rate = (id: number | string, json: unknown, auth?: Record<string, string>) =>
  s.call('POST', `/api/assistant/messages/${id}/feedback`, { auth, json });

describe('feedback on an answer', () => {
  it("is the owner's: 200 with the rating, and a second call replaces the first", async () => {
    const { answer } = await ask('How long does a refund take?', s.member.auth);
    const up = await rate(answer, { rating: 'up' }, s.member.auth);
    expect(up.status).toBe(200);
    expect(up.body).toEqual({
      success: true,
      message: 'Thank you for your feedback.',
      data: {
        message_id: answer,
        rating: 'up',
        reason: null,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
    });
    const down = await rate(answer, { rating: 'down', reason: '  Too vague  ' }, s.member.auth);
    expect(down.body.data).toMatchObject({ message_id: answer, rating: 'down', reason: 'Too vague' });
    expect(down.body.data.created_at).toBe(up.body.data.created_at);
    const rows = await s.database.db
      .selectFrom('assistant_answer_feedback')
      .select(['rating', 'reason'])
      .where('message_id', '=', answer)
      .execute();
    expect(rows).toEqual([{ rating: 'down', reason: 'Too vague' }]);
  });

  it("answers 404 for another user's answer, a user message, an unknown or malformed id; 401 without a token", async () => {
    const { question, answer } = await ask('How do I open a support ticket?', s.member.auth);
    const notFound = { status: 404, body: { success: false, message: 'Message not found.' } };
    expect(await rate(answer, { rating: 'up' }, other.auth)).toEqual(notFound);
    expect(await rate(question, { rating: 'up' }, s.member.auth)).toEqual(notFound);
    expect(await rate(2_000_000_000, { rating: 'up' }, s.member.auth)).toEqual(notFound);
    expect(await rate('abc', { rating: 'up' }, s.member.auth)).toEqual(notFound);
    expect(await rate(answer, { rating: 'up' })).toEqual({ status: 401, body: { message: 'Unauthenticated.' } });
    const none = await s.database.db
      .selectFrom('assistant_answer_feedback')
      .select('id')
      .where('message_id', 'in', [question, answer])
      .execute();
    expect(none).toEqual([]);
  });

  it('checks every field, in the assistant form', async () => {
    const { answer } = await ask('How long does a refund take?', s.member.auth);
    expect(await rate(answer, {}, s.member.auth)).toEqual({
      status: 422,
      body: { success: false, errors: { rating: ['The rating field is required.'] } },
    });
    expect((await rate(answer, { rating: 'meh' }, s.member.auth)).body).toEqual({
      success: false,
      errors: { rating: ['The selected rating is invalid.'] },
    });
    expect((await rate(answer, { rating: 'down', reason: 'x'.repeat(1001) }, s.member.auth)).body).toEqual({
      success: false,
      errors: { reason: ['The reason must not be greater than 1000 characters.'] },
    });
    expect((await rate(answer, { rating: 'down', reason: 'x'.repeat(1000) }, s.member.auth)).status).toBe(200);
  });
});

describe('the gaps', () => {
  const BITCOIN = [
    'Can I pay with bitcoin?',
    'can i pay using bitcoin',
    'Is paying with bitcoin possible?',
    'Do you accept bitcoin payments?',
    'Can I pay with bitcoin?',
  ];
  const gaps = async (query = '', auth = s.admin.auth) => {
    const answer = await s.call('GET', `/api/admin/assistant/gaps${query}`, { auth });
    expect(answer.status).toBe(200);
    return answer.body.data as any[];
  };
  let downAnswer: number;

  beforeAll(async () => {
    for (const q of BITCOIN) await ask(q, s.member.auth);
    await ask('Do you have a mobile app for iPhone?', other.auth);
    await ask('is there an iphone app', s.member.auth);
    await ask('آیا می‌توانم با بیت‌کوین پرداخت کنم؟', s.member.auth);
    await ask('پرداخت با بیت کوین ممکنه؟', other.auth);
    // Staff trying the assistant are left out.
    await ask('Can I pay with bitcoin?', s.admin.auth);
    await ask('Can I pay with dogecoin?', s.admin.auth);
    downAnswer = (await ask('How long does a refund take?', other.auth)).answer;
    await rate(downAnswer, { rating: 'down', reason: 'It did not say how long' }, other.auth);
  }, 120_000);

  it('groups the phrasings of one missing thing per language, with counts, times, examples and the closest passages', async () => {
    const data = await gaps();
    const bitcoin = data.find((g) => g.lang === 'en' && /bitcoin/i.test(g.question));
    expect(bitcoin).toMatchObject({
      question: 'Can I pay with bitcoin?',
      count: 5,
      no_answer_count: 5,
      thumbs_down_count: 0,
      lang: 'en',
      state: 'open',
      article_key: null,
      decided_at: null,
    });
    expect(bitcoin.id).toMatch(/^[0-9a-f]{16}$/);
    expect(new Set(bitcoin.examples)).toEqual(new Set(BITCOIN.slice(1, 4)));
    expect(bitcoin.first_asked_at <= bitcoin.last_asked_at).toBe(true);
    expect(bitcoin.closest.length).toBeGreaterThan(0);
    expect(bitcoin.closest.length).toBeLessThanOrEqual(3);
    expect(data[0].id).toBe(bitcoin.id);
    const iphone = data.filter((g) => /iphone/i.test(g.question));
    expect(iphone).toHaveLength(1);
    expect(iphone[0].count).toBe(2);
    const persian = data.filter((g) => g.lang === 'fa');
    expect(persian).toHaveLength(1);
    expect(persian[0].count).toBe(2);
    expect(data.some((g) => /dogecoin/i.test(g.question))).toBe(false);
    const refund = data.find((g) => g.question === 'How long does a refund take?');
    // Two rated down in the feedback tests above, one here: the newest reason first.
    expect(refund).toMatchObject({ count: 3, thumbs_down_count: 3, no_answer_count: 0 });
    expect(refund.reasons[0]).toBe('It did not say how long');
    expect(await gaps('?lang=fa')).toEqual(persian);
    expect(await gaps('?limit=1')).toHaveLength(1);
  });

  it('is for staff only', async () => {
    expect(await s.call('GET', '/api/admin/assistant/gaps', { auth: s.member.auth })).toEqual({
      status: 403,
      body: FORBIDDEN,
    });
    expect(await s.call('GET', '/api/admin/assistant/gaps')).toEqual({
      status: 401,
      body: { message: 'Unauthenticated.' },
    });
    const put = await s.call('PUT', '/api/admin/assistant/gaps/0123456789abcdef', {
      auth: s.member.auth,
      json: { state: 'dismissed' },
    });
    expect(put.status).toBe(403);
    expect((await s.call('GET', '/api/admin/assistant/gaps?days=0', { auth: s.admin.auth })).status).toBe(422);
  });

  it('closes a group when dismissed or answered, until it is asked again', async () => {
    const iphone = (await gaps()).find((g) => /iphone/i.test(g.question));
    const dismissed = await s.call('PUT', `/api/admin/assistant/gaps/${iphone.id}`, {
      auth: s.admin.auth,
      json: { state: 'dismissed' },
    });
    expect(dismissed.status).toBe(200);
    expect(dismissed.body).toMatchObject({ success: true, message: 'Question group dismissed.' });
    expect(dismissed.body.data).toMatchObject({ id: iphone.id, state: 'dismissed', count: 2 });
    expect((await gaps()).some((g) => g.id === iphone.id)).toBe(false);
    expect((await gaps('?state=dismissed')).map((g) => g.id)).toEqual([iphone.id]);
    await ask('Is there an app for my iPhone?', s.member.auth);
    const reopened = (await gaps()).find((g) => g.id === iphone.id);
    expect(reopened).toMatchObject({ state: 'open', count: 3 });

    const bitcoin = (await gaps()).find((g) => /bitcoin/i.test(g.question) && g.lang === 'en');
    const put = (json: unknown) =>
      s.call('PUT', `/api/admin/assistant/gaps/${bitcoin.id}`, { auth: s.admin.auth, json });
    expect(await put({ state: 'answered' })).toEqual({
      status: 422,
      body: {
        success: false,
        message: 'The given data was invalid.',
        errors: { article_key: ['The article key field is required.'] },
      },
    });
    expect((await put({ state: 'answered', article_key: 'no.such-article' })).body.errors).toEqual({
      article_key: ['The selected article key is invalid.'],
    });
    expect((await put({ state: 'maybe' })).status).toBe(422);
    const answered = await put({ state: 'answered', article_key: 'payments.refund-time' });
    expect(answered.body.data).toMatchObject({ state: 'answered', article_key: 'payments.refund-time' });
    expect((await gaps('?state=answered')).map((g) => g.id)).toEqual([bitcoin.id]);
  });

  it('answers 404 for a group that does not exist', async () => {
    const missing = await s.call('PUT', '/api/admin/assistant/gaps/0123456789abcdef', {
      auth: s.admin.auth,
      json: { state: 'dismissed' },
    });
    expect(missing).toEqual({ status: 404, body: { success: false, message: 'Question group not found.' } });
    const malformed = await s.call('PUT', '/api/admin/assistant/gaps/nothex', {
      auth: s.admin.auth,
      json: { state: 'dismissed' },
    });
    expect(malformed.status).toBe(422);
  });
});
