// The chat with the requests the platform's own front-end sends, unchanged: its widget (agent,
// conversation_id null), its context-aware script (a nested page context with nulls), and the
// bounds that replaced the ban on non-scalar context values.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import type { TestUser } from '../helpers/factories.js';
import { appWithUsers } from '../helpers/fixtures.js';

describe("POST /api/assistant/chat with the front-end's requests", () => {
  let t: TestApp, user: TestUser, admin: TestUser;
  beforeAll(async () => ({ t, user, admin } = await appWithUsers({ user: {}, admin: { admin: true } })));
  afterAll(() => t.close());

  /** Sends the body as the exact JSON text given, as a browser would. */
  const chatRaw = (who: TestUser, json: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/assistant/chat',
      headers: { ...who.auth, 'content-type': 'application/json' },
      payload: json,
    });
  const chat = (who: TestUser, payload: object) => chatRaw(who, JSON.stringify(payload));
  const conversations = async (who: TestUser) =>
    (await t.db.selectFrom('assistant_conversations').select('id').where('user_id', '=', who.id).execute()).map(
      (r) => r.id,
    );

  describe('the chat widget', () => {
    it('starts a new conversation for {"message", "agent":"steward", "conversation_id":null}', async () => {
      const before = await conversations(user);
      const res = await chatRaw(
        user,
        '{"message":"How long does a refund take?","agent":"steward","conversation_id":null}',
      );
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(body).toMatchObject({ success: true, agent: 'steward' });
      expect(before).not.toContain(body.conversation_id);
      expect(await conversations(user)).toEqual([...before, body.conversation_id]);
    });

    it('continues the conversation when the widget then sends its id', async () => {
      const first = (
        await chatRaw(user, '{"message":"I need a refund","agent":"steward","conversation_id":null}')
      ).json();
      const next = await chatRaw(
        user,
        `{"message":"It was for project 7","agent":"steward","conversation_id":${first.conversation_id}}`,
      );
      expect(next.statusCode).toBe(200);
      expect(next.json().conversation_id).toBe(first.conversation_id);
    });

    it("answers an admin's conversation_id null with a new conversation too", async () => {
      const res = await chatRaw(admin, '{"message":"Is this project risky?","agent":"pilot","conversation_id":null}');
      expect(res.statusCode).toBe(200);
      expect(res.json().agent).toBe('pilot');
    });
  });

  describe('the context-aware script', () => {
    const pageContext =
      '{"page":{"route_name":"projects.show","module":"projects","resource_type":"project","resource_id":12}}';

    it('accepts the nested page context', async () => {
      const res = await chatRaw(user, `{"message":"How do I invest in this project?","context":${pageContext}}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ success: true, agent: 'steward' });
    });

    it('accepts the page context with null values, agent null and conversation_id null', async () => {
      const res = await chatRaw(
        user,
        '{"message":"What is this page?","agent":null,"conversation_id":null,"context":{"page":{"route_name":"dashboard","module":null,"resource_type":null,"resource_id":null}}}',
      );
      expect(res.statusCode, res.body).toBe(200);
    });

    it('takes context null as no context', async () => {
      const res = await chatRaw(user, '{"message":"refund","context":null}');
      expect(res.statusCode).toBe(200);
    });

    it('takes agent null as the default: steward for a member, auto routing for an admin', async () => {
      expect((await chatRaw(user, '{"message":"the login page shows an error","agent":null}')).json().agent).toBe(
        'steward',
      );
      const routed = await chatRaw(admin, '{"message":"the login page shows an error","agent":null}');
      expect(routed.statusCode).toBe(200);
      const auto = await chatRaw(admin, '{"message":"the login page shows an error","agent":"auto"}');
      expect(routed.json().agent).toBe(auto.json().agent);
    });

    it('accepts arrays, booleans and numbers at any level within the bounds', async () => {
      const res = await chat(user, {
        message: 'refund',
        context: {
          filters: ['open', 'closed'],
          page: {
            tabs: [
              { id: 1, active: true },
              { id: 2, active: false },
            ],
            ratio: 0.5,
          },
        },
      });
      expect(res.statusCode, res.body).toBe(200);
    });
  });

  describe('the agent field of a non-admin', () => {
    for (const [label, agent] of [
      ['an unknown string', 'bogus'],
      ['a number', 42],
      ['an object', { id: 'engineer' }],
      ['an array', ['pilot']],
      ['true', true],
      ['an admin-only agent', 'engineer'],
    ] as const) {
      it(`is ignored when it holds ${label}: steward answers`, async () => {
        const res = await chat(user, { message: 'refund', agent });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json().agent).toBe('steward');
      });
    }
  });

  describe('the agent field of an admin', () => {
    for (const [label, agent] of [
      ['an unknown string', 'bogus'],
      ['a number', 42],
      ['an object', { id: 'engineer' }],
      ['an empty string', ''],
    ] as const) {
      it(`answers 422 when it holds ${label}`, async () => {
        const res = await chat(admin, { message: 'refund', agent });
        expect(res.statusCode).toBe(422);
        expect(res.json()).toEqual({ success: false, errors: { agent: ['The selected agent is invalid.'] } });
      });
    }

    it('reports a bad agent with a bad context and a blank message together', async () => {
      const res = await chat(admin, { message: '  ', agent: 'captain', context: { a: { b: { c: { d: [1] } } } } });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({
        success: false,
        errors: {
          message: ['The message field is required.'],
          agent: ['The selected agent is invalid.'],
          context: ['The context must not be nested more than 4 levels deep.'],
        },
      });
    });

    it('still gets the agent named', async () => {
      expect((await chat(admin, { message: 'refund', agent: 'guide' })).json().agent).toBe('guide');
    });
  });

  describe('context bounds', () => {
    const reject = async (context: unknown, message: string) => {
      const res = await chat(user, { message: 'refund', context });
      expect(res.statusCode, JSON.stringify(context).slice(0, 80)).toBe(422);
      expect(res.json()).toEqual({ success: false, errors: { context: [message] } });
    };
    const accept = async (context: unknown) => {
      const res = await chat(user, { message: 'refund', context });
      expect(res.statusCode, res.body).toBe(200);
    };
    /** A context whose JSON text is exactly `bytes` bytes long. */
    const ofSize = (bytes: number) => {
      const overhead = JSON.stringify({ note: '' }).length;
      const context = { note: 'x'.repeat(bytes - overhead) };
      expect(Buffer.byteLength(JSON.stringify(context))).toBe(bytes);
      return context;
    };

    it('accepts 8192 bytes as JSON and refuses 8193', async () => {
      await accept(ofSize(8192));
      await reject(ofSize(8193), 'The context must not be larger than 8192 bytes as JSON.');
    });

    it('counts bytes, not characters: 8193 bytes of Persian text are refused', async () => {
      const context = { note: 'ب'.repeat(4091) };
      expect(Buffer.byteLength(JSON.stringify(context))).toBe(8193);
      expect(JSON.stringify(context).length).toBeLessThan(8192);
      await reject(context, 'The context must not be larger than 8192 bytes as JSON.');
    });

    it('accepts four levels of objects and arrays and refuses a fifth', async () => {
      await accept({ a: { b: { c: { d: 1 } } } });
      await accept({ a: [[{ d: 'deep' }]] });
      await reject({ a: { b: { c: { d: {} } } } }, 'The context must not be nested more than 4 levels deep.');
      await reject({ a: [[[[1]]]] }, 'The context must not be nested more than 4 levels deep.');
    });

    it('answers 422, never a 500, for a context nested thousands of levels deep', async () => {
      const deep = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
      const res = await chatRaw(user, `{"message":"refund","context":${deep}}`);
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({
        success: false,
        errors: { context: ['The context must not be nested more than 4 levels deep.'] },
      });
    });

    it('accepts 50 keys across all levels and refuses 51', async () => {
      const nested = (total: number) => ({
        page: Object.fromEntries(Array.from({ length: total - 2 }, (_, i) => [`k${i}`, i])),
        user_agent: 'x',
      });
      await accept(nested(50));
      await reject(nested(51), 'The context must not have more than 50 keys in all.');
    });

    it('accepts keys of 64 characters at any level and refuses 65 or an empty key', async () => {
      await accept({ page: { ['k'.repeat(64)]: 1 } });
      await reject({ page: { ['k'.repeat(65)]: 1 } }, 'Each context key must be 1 to 64 characters.');
      await reject({ page: { '': 1 } }, 'Each context key must be 1 to 64 characters.');
    });

    it('still refuses a context that is not an object or null', async () => {
      for (const context of ['page=5', 5, true, [1, 2]]) {
        const res = await chat(user, { message: 'refund', context });
        expect(res.statusCode).toBe(422);
        expect(res.json()).toEqual({ success: false, errors: { context: ['The context must be an object.'] } });
      }
    });

    it('writes the bound in Persian for Accept-Language fa', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/assistant/chat',
        headers: { ...user.auth, 'accept-language': 'fa' },
        payload: { message: 'refund', context: { a: { b: { c: { d: {} } } } } },
      });
      expect(res.json()).toEqual({ success: false, errors: { context: ['context نباید بیش از 4 سطح تودرتو باشد.'] } });
    });
  });
});
