import helmet from '@fastify/helmet';
import Fastify, { type FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forbidden, businessRule, notFound, ValidationError } from '../../src/core/errors.js';
import { HELMET_OPTIONS } from '../../src/http/security-headers.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { makeToken, type TestUser } from '../helpers/factories.js';
import { FORBIDDEN } from '../helpers/staff-api.js';

const Body = Type.Object({
  subject: Type.String({ minLength: 1, maxLength: 255 }),
  message: Type.String({ minLength: 10 }),
  priority: Type.Optional(Type.Enum(['low', 'normal', 'high'])),
  tags: Type.Optional(Type.Array(Type.Integer())),
  category: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  rating: Type.Optional(Type.Integer({ minimum: 1, maximum: 5 })),
});

async function testRoutes(app: FastifyInstance) {
  for (const form of ['assistant', 'tickets', 'general'] as const) {
    app.post(
      `/api/test/${form}`,
      { schema: { body: Body }, config: { auth: 'user', validationForm: form } },
      async (req) => ({
        success: true,
        user_id: req.user!.id,
      }),
    );
  }
  app.get('/api/test/admin', { config: { auth: 'admin' } }, async () => ({ success: true }));
  app.get('/api/test/optional', { config: { auth: 'optional' } }, async (req) => ({ user_id: req.user?.id ?? null }));
  app.get('/api/test/errors/:kind', async (req) => {
    const { kind } = req.params as { kind: string };
    if (kind === 'rule') throw businessRule('Ticket is already closed.');
    if (kind === 'forbidden') throw forbidden('Not yours.');
    if (kind === 'missing') throw notFound('Conversation not found.');
    if (kind === 'validation') throw new ValidationError({ 'tags.0': ['The selected tags.0 is invalid.'] }, 'tickets');
    throw new Error('secret internal detail at /srv/app.ts:42');
  });
  app.get(
    '/api/test/typed/:id',
    { schema: { params: Type.Object({ id: Type.Integer() }), querystring: Type.Object({ page: Type.Integer() }) } },
    async (req) => ({ ...(req.params as object), ...(req.query as object) }),
  );
  app.get('/api/test/timestamp', async () => ({ now: new Date().toISOString() }));
}

describe('foundation', () => {
  let t: TestApp;
  let user: TestUser;
  let admin: TestUser;

  beforeAll(async () => {
    t = await buildTestApp({ routes: testRoutes });
    user = await t.makeUser();
    admin = await t.makeUser({ admin: true });
  });
  afterAll(() => t.close());

  const valid = { subject: 'Payment failed', message: 'My card was charged twice.' };

  describe('authentication', () => {
    const cases: Array<[string, () => Promise<Record<string, string>>]> = [
      ['no Authorization header', async () => ({})],
      ['a garbage token', async () => ({ authorization: 'Bearer not-a-token' })],
      ['a non-bearer scheme', async () => ({ authorization: `Basic ${user.token}` })],
      ['an unknown token id', async () => ({ authorization: `Bearer 999999|${'a'.repeat(40)}` })],
      [
        'a known id with the wrong secret',
        async () => ({ authorization: `Bearer ${user.token.split('|')[0]}|${'b'.repeat(40)}` }),
      ],
      [
        'an expired token',
        async () => ({ authorization: `Bearer ${await makeToken(t.db, user.id, { expired: true })}` }),
      ],
      [
        'a revoked token',
        async () => ({ authorization: `Bearer ${await makeToken(t.db, user.id, { revoked: true })}` }),
      ],
      ['an overlong header', async () => ({ authorization: `Bearer ${'x'.repeat(5000)}` })],
    ];
    for (const [name, headers] of cases) {
      it(`answers 401 {"message":"Unauthenticated."} for ${name}`, async () => {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/test/general',
          headers: await headers(),
          payload: valid,
        });
        expect(res.statusCode).toBe(401);
        expect(res.json()).toEqual({ message: 'Unauthenticated.' });
      });
    }

    it('lets a valid token through and identifies the user', async () => {
      const res = await t.app.inject({ method: 'POST', url: '/api/test/general', headers: user.auth, payload: valid });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: true, user_id: user.id });
    });

    it('accepts a token that expires in the future', async () => {
      const token = await makeToken(t.db, user.id, { expiresInDays: 1 });
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/test/optional',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.json()).toEqual({ user_id: user.id });
    });

    it('records last_used_at once, not on every request', async () => {
      const token = await makeToken(t.db, user.id);
      const id = Number(token.split('|')[0]);
      const headers = { authorization: `Bearer ${token}` };
      await t.app.inject({ method: 'GET', url: '/api/test/optional', headers });
      await new Promise((r) => setTimeout(r, 50));
      const first = await t.db
        .selectFrom('personal_access_tokens')
        .select('last_used_at')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(first.last_used_at).toMatch(/Z$/);
      await t.app.inject({ method: 'GET', url: '/api/test/optional', headers });
      await new Promise((r) => setTimeout(r, 50));
      const second = await t.db
        .selectFrom('personal_access_tokens')
        .select('last_used_at')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(second.last_used_at).toBe(first.last_used_at);
    });

    it('treats a bad token on an optional route as anonymous', async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/test/optional',
        headers: { authorization: 'Bearer nope' },
      });
      expect(res.json()).toEqual({ user_id: null });
    });

    it('gives non-admins 403 {success:false,message} on admin routes', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/test/admin', headers: user.auth });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual(FORBIDDEN);
      const ok = await t.app.inject({ method: 'GET', url: '/api/test/admin', headers: admin.auth });
      expect(ok.statusCode).toBe(200);
    });
  });

  describe('validation bodies', () => {
    it('uses the assistant form: {success:false, errors}', async () => {
      const res = await t.app.inject({ method: 'POST', url: '/api/test/assistant', headers: user.auth, payload: {} });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({
        success: false,
        errors: { subject: ['The subject field is required.'], message: ['The message field is required.'] },
      });
    });

    it('uses the tickets form with "Validation error."', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/test/tickets',
        headers: user.auth,
        payload: { subject: 'x'.repeat(256), message: 'short', priority: 'urgent', tags: [1, 'x'], rating: 9 },
      });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({
        success: false,
        message: 'Validation error.',
        errors: {
          subject: ['The subject must not be greater than 255 characters.'],
          message: ['The message must be at least 10 characters.'],
          priority: ['The selected priority is invalid.'],
          'tags.1': ['The tags.1 must be an integer.'],
          rating: ['The rating must not be greater than 5.'],
        },
      });
    });

    it('uses the general form with "The given data was invalid."', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/test/general',
        headers: user.auth,
        payload: { ...valid, subject: '' },
      });
      expect(res.json()).toEqual({
        success: false,
        message: 'The given data was invalid.',
        errors: { subject: ['The subject field is required.'] },
      });
    });

    it('reports a nullable field with one sentence', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/test/general',
        headers: user.auth,
        payload: { ...valid, category: { a: 1 } },
      });
      expect(res.json().errors).toEqual({ category: ['The category must be a string.'] });
    });

    it('writes field messages in Persian when Accept-Language prefers fa, keeping the fixed strings', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/test/tickets',
        headers: { ...user.auth, 'accept-language': 'fa-IR,fa;q=0.9,en;q=0.5' },
        payload: { message: 'short' },
      });
      expect(res.json()).toEqual({
        success: false,
        message: 'Validation error.',
        errors: { subject: ['فیلد subject الزامی است.'], message: ['message باید دست‌کم 10 نویسه باشد.'] },
      });
    });

    it('checks JSON body types as sent: no number passes as a string, null stays null', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/test/general',
        headers: user.auth,
        payload: { ...valid, subject: 42, message: true },
      });
      expect(res.json().errors).toEqual({
        subject: ['The subject must be a string.'],
        message: ['The message must be a string.'],
      });
      const ok = await t.app.inject({
        method: 'POST',
        url: '/api/test/general',
        headers: user.auth,
        payload: { ...valid, category: null },
      });
      expect(ok.statusCode).toBe(200);
    });

    it('still reads path and query values, which arrive as text, as the integers they spell', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/test/typed/7?page=2' });
      expect(res.json()).toEqual({ id: 7, page: 2 });
    });

    it('lets a service raise field errors in a chosen form', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/test/errors/validation' });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({
        success: false,
        message: 'Validation error.',
        errors: { 'tags.0': ['The selected tags.0 is invalid.'] },
      });
    });
  });

  describe('error bodies', () => {
    it.each([
      ['rule', 400, { success: false, message: 'Ticket is already closed.' }],
      ['forbidden', 403, { success: false, message: 'Not yours.' }],
      ['missing', 404, { success: false, message: 'Conversation not found.' }],
    ])('maps a %s error to %i', async (kind, status, body) => {
      const res = await t.app.inject({ method: 'GET', url: `/api/test/errors/${kind}` });
      expect(res.statusCode).toBe(status);
      expect(res.json()).toEqual(body);
    });

    it('hides internal detail of an unexpected error behind a 500 and a request id', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/test/errors/boom' });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ success: false, message: 'Server Error', error: 'internal_error' });
      expect(res.body).not.toContain('secret');
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('answers an unknown route with 404 {message}', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/nothing-here' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'The route GET /api/nothing-here could not be found.' });
    });

    it('answers malformed JSON with 400 {success:false,message}', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/test/general',
        headers: { ...user.auth, 'content-type': 'application/json' },
        payload: '{"subject": "x",',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ success: false, message: 'The request body is not valid JSON.' });
    });

    it('answers a body over the limit with 413 {message}', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/test/general',
        headers: { ...user.auth, 'content-type': 'application/json' },
        payload: JSON.stringify({ ...valid, message: 'x'.repeat(t.config.BODY_LIMIT_BYTES) }),
      });
      expect(res.statusCode).toBe(413);
      expect(res.json()).toEqual({ message: 'The request body is too large.' });
    });

    it('answers an unsupported content type with 415 {message}', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/test/general',
        headers: { ...user.auth, 'content-type': 'application/xml' },
        payload: '<a/>',
      });
      expect(res.statusCode).toBe(415);
      expect(res.json()).toEqual({ message: 'Unsupported content type: send application/json.' });
    });

    it('treats an empty JSON body as no body rather than an error', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/test/general',
        headers: { ...user.auth, 'content-type': 'application/json' },
        payload: '',
      });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors).toEqual({ body: ['The request body must be a JSON object.'] });
    });
  });

  describe('service endpoints', () => {
    it('GET /health says ok when the database answers', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/health' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ status: 'ok' });
    });

    it('serves the OpenAPI document and the docs UI', async () => {
      const doc = await t.app.inject({ method: 'GET', url: '/openapi.json' });
      expect(doc.statusCode).toBe(200);
      expect(doc.json().openapi).toBe('3.1.0');
      expect(doc.json().components.securitySchemes.bearerAuth.scheme).toBe('bearer');
      const ui = await t.app.inject({ method: 'GET', url: '/docs/' });
      expect(ui.statusCode).toBe(200);
      expect(ui.headers['content-type']).toContain('text/html');
    });

    it('sends Strict-Transport-Security only to a request that came over HTTPS (as TRUST_PROXY believes it)', async () => {
      const https = { 'x-forwarded-proto': 'https' };
      expect((await t.app.inject('/health')).headers['strict-transport-security']).toBeUndefined();
      // This app believes no proxy: a forwarded https is not taken.
      expect(
        (await t.app.inject({ url: '/health', headers: https })).headers['strict-transport-security'],
      ).toBeUndefined();
      const proxied = await buildTestApp({ config: { TRUST_PROXY: true } });
      try {
        expect(
          (await proxied.app.inject({ url: '/health', headers: https })).headers['strict-transport-security'],
        ).toBe('max-age=31536000; includeSubDomains');
        expect(
          (await proxied.app.inject({ url: '/api/provinces', headers: https })).headers['strict-transport-security'],
        ).toBe('max-age=31536000; includeSubDomains');
        expect(
          (await proxied.app.inject({ url: '/health', headers: { 'x-forwarded-proto': 'http' } })).headers[
            'strict-transport-security'
          ],
        ).toBeUndefined();
      } finally {
        await proxied.close();
      }
    });

    it('sends security headers', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/health' });
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    });

    it("sends on every response exactly the headers helmet's own global hook sends with the same options", async () => {
      const plain = Fastify();
      await plain.register(helmet, HELMET_OPTIONS);
      plain.get('/', async () => ({ ok: true }));
      const expected = (await plain.inject('/')).headers;
      await plain.close();
      // Strict-Transport-Security only over HTTPS (the next test).
      const names = Object.keys(expected).filter((h) => /^(x-|cross-origin|origin-agent|referrer)/.test(h));
      expect(names.length).toBeGreaterThanOrEqual(7);
      const responses = [
        await t.app.inject('/health'),
        await t.app.inject('/health'),
        await t.app.inject('/api/no-such-route'),
        await t.app.inject({ method: 'GET', url: '/api/notifications', headers: user.auth }),
      ];
      expect(responses.map((r) => r.statusCode)).toEqual([200, 200, 404, 200]);
      for (const res of responses) {
        for (const name of names) expect(res.headers[name], `${res.statusCode} ${name}`).toBe(expected[name]);
      }
    });
  });
});
