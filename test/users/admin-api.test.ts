// The users part of the admin integration API: the platform mirrors a user by its id and hands out
// and revokes tokens; on the real database of the run (SQLite or PostgreSQL).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import type { TestUser } from '../helpers/factories.js';
import { appWithUsers } from '../helpers/fixtures.js';
import { FORBIDDEN } from '../helpers/staff-api.js';

const INVALID = 'The given data was invalid.';
const TOKEN = /^(\d+)\|[A-Za-z0-9]{40}$/;

let nextId = 700_000;
/** A platform user id not used before in this file (far above the ids the factories take). */
const platformId = () => ++nextId;
const person = (id: number, extra: Record<string, unknown> = {}) => ({
  email: `person-${id}@platform.test`,
  first_name: 'Ada',
  last_name: `Person ${id}`,
  ...extra,
});

describe('admin integration API: users and tokens', () => {
  let t: TestApp, admin: TestUser, member: TestUser;
  beforeAll(async () => ({ t, admin, member } = await appWithUsers({ admin: { admin: true }, member: {} })));
  afterAll(() => t.close());

  const send = async (
    method: 'PUT' | 'POST' | 'GET' | 'DELETE',
    url: string,
    payload?: unknown,
    headers: Record<string, string> = admin.auth,
  ) => {
    const res = await t.app.inject({
      method,
      url,
      headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    return { status: res.statusCode, body: res.body === '' ? undefined : res.json() };
  };
  const putUser = (id: number | string, body: unknown) => send('PUT', `/api/admin/users/${id}`, body);
  const mint = (id: number | string, body: unknown = {}) => send('POST', `/api/admin/users/${id}/tokens`, body);
  const ticketsWith = async (token: string) =>
    t.app.inject({ method: 'GET', url: '/api/tickets', headers: { authorization: `Bearer ${token}` } });
  const userRow = (id: number) => t.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  const tokenRows = (userId: number) =>
    t.db.selectFrom('personal_access_tokens').selectAll().where('user_id', '=', userId).orderBy('id').execute();
  /** What a refused call must not change (last_used_at moves with the refused caller's own sign-in). */
  const tokenStates = async (userId: number) =>
    (await tokenRows(userId)).map(({ id, revoked_at }) => ({ id, revoked_at }));

  /** A mirrored user with one token: the two calls a platform back-end makes at sign-in. */
  async function signedIn(extra: Record<string, unknown> = {}) {
    const id = platformId();
    expect((await putUser(id, person(id, extra))).status).toBe(201);
    const minted = await mint(id, { name: 'browser' });
    expect(minted.status).toBe(201);
    return { id, token: minted.body.token as string, tokenId: minted.body.id as number };
  }

  describe('access', () => {
    const calls: Array<[string, 'PUT' | 'POST' | 'GET' | 'DELETE', () => string, unknown]> = [
      ['PUT user', 'PUT', () => `/api/admin/users/${platformId()}`, person(1)],
      ['POST token', 'POST', () => `/api/admin/users/${member.id}/tokens`, {}],
      ['GET tokens', 'GET', () => `/api/admin/users/${member.id}/tokens`, undefined],
      ['DELETE token', 'DELETE', () => `/api/admin/users/${member.id}/tokens/1`, undefined],
      ['DELETE tokens', 'DELETE', () => `/api/admin/users/${member.id}/tokens`, undefined],
    ];

    it.each(calls)(
      '%s: 401 {"message":"Unauthenticated."} without a token, and nothing changes',
      async (_name, method, url, payload) => {
        const before = await tokenRows(member.id);
        const res = await send(method, url(), payload, {});
        expect(res).toEqual({ status: 401, body: { message: 'Unauthenticated.' } });
        expect(await tokenRows(member.id)).toEqual(before);
      },
    );

    it.each(calls)(
      '%s: 403 {success:false, message} for a user who is not an admin, and nothing changes',
      async (_name, method, url, payload) => {
        const before = await tokenStates(member.id);
        const res = await send(method, url(), payload, member.auth);
        expect(res).toEqual({
          status: 403,
          body: FORBIDDEN,
        });
        expect(await tokenStates(member.id)).toEqual(before);
      },
    );

    it('writes no user for a refused PUT', async () => {
      const id = platformId();
      await send('PUT', `/api/admin/users/${id}`, person(id), member.auth);
      expect(await userRow(id)).toBeUndefined();
    });

    it('lists every route in the OpenAPI document with its operationId', async () => {
      const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
      const op = (path: string, method: string) => doc.paths[path]?.[method]?.operationId;
      expect(op('/api/admin/users/{id}', 'put')).toBe('putAdminUser');
      expect(op('/api/admin/users/{id}/tokens', 'post')).toBe('createAdminUserToken');
      expect(op('/api/admin/users/{id}/tokens', 'get')).toBe('listAdminUserTokens');
      expect(op('/api/admin/users/{id}/tokens/{token_id}', 'delete')).toBe('revokeAdminUserToken');
      expect(op('/api/admin/users/{id}/tokens', 'delete')).toBe('revokeAdminUserTokens');
    });
  });

  describe('PUT /api/admin/users/{id}', () => {
    it("creates the user under the platform's id: 201 with the user, defaults for what was left out", async () => {
      const id = platformId();
      const res = await putUser(id, {
        email: `New.Person-${id}@Platform.TEST`,
        first_name: 'Grace',
        last_name: 'Hopper',
      });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        success: true,
        message: 'User created.',
        data: {
          id,
          email: `new.person-${id}@platform.test`,
          first_name: 'Grace',
          last_name: 'Hopper',
          is_admin: false,
          role: 'member',
          locale: 'en',
          active: true,
          created_at: expect.any(String),
          updated_at: res.body.data.created_at,
        },
        tokens_revoked: 0,
      });
      expect(await userRow(id)).toMatchObject({
        id,
        email: `new.person-${id}@platform.test`,
        is_admin: 0,
        role: 'member',
        locale: 'en',
        active: 1,
      });
    });

    it('answers the same body again with 200 and changes nothing (a retry)', async () => {
      const id = platformId();
      const body = person(id, { is_admin: true, locale: 'fa' });
      const first = await putUser(id, body);
      const stored = await userRow(id);
      const again = await putUser(id, body);
      expect(again.status).toBe(200);
      expect(again.body).toEqual({ ...first.body, message: 'User updated.' });
      expect(await userRow(id)).toEqual(stored);
    });

    it('updates what is given and keeps what is left out', async () => {
      const id = platformId();
      await putUser(id, person(id, { is_admin: true, locale: 'fa' }));
      const res = await putUser(id, { email: `renamed-${id}@platform.test`, first_name: 'Ada', last_name: 'King' });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        email: `renamed-${id}@platform.test`,
        last_name: 'King',
        is_admin: true,
        locale: 'fa',
        active: true,
      });
      const demoted = await putUser(id, { ...person(id), is_admin: false, locale: 'en' });
      expect(demoted.body.data).toMatchObject({ is_admin: false, locale: 'en' });
    });

    it('answers concurrent PUTs of one new user with one 201 and 200s, never a 500', async () => {
      const id = platformId();
      const results = await Promise.all(Array.from({ length: 5 }, () => putUser(id, person(id))));
      expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 201]);
    });

    it('answers two new users racing for one email with one 201 and one 422', async () => {
      const [a, b] = [platformId(), platformId()];
      const email = `race-${a}@platform.test`;
      const results = await Promise.all([putUser(a, { ...person(a), email }), putUser(b, { ...person(b), email })]);
      expect(results.map((r) => r.status).sort()).toEqual([201, 422]);
      expect(results.find((r) => r.status === 422)!.body).toEqual({
        success: false,
        message: INVALID,
        errors: { email: ['The email has already been taken.'] },
      });
    });

    it('makes a user the other admin routes accept as a project owner', async () => {
      const id = platformId();
      await putUser(id, person(id));
      const res = await send('PUT', `/api/admin/projects/${platformId()}`, {
        title: 'Solar farm',
        owner_id: id,
        status: 'approved',
      });
      expect(res.status).toBe(201);
    });

    it('leaves the next id of a user made without one free (user:create after mirrored ids)', async () => {
      const id = platformId() + 50_000;
      await putUser(id, person(id));
      const later = await t.makeUser();
      expect(later.id).toBeGreaterThan(id);
    });

    const validationCases: Array<[string, Record<string, unknown>, Record<string, string[]>]> = [
      ['a missing email', { email: undefined }, { email: ['The email field is required.'] }],
      ['an empty email', { email: '' }, { email: ['The email field is required.', 'The email format is invalid.'] }],
      ['an email that is not an address', { email: 'not-an-address' }, { email: ['The email format is invalid.'] }],
      [
        'an email over 255 characters',
        { email: `${'a'.repeat(250)}@x.test` },
        { email: ['The email must not be greater than 255 characters.'] },
      ],
      ['an email that is not a string', { email: 42 }, { email: ['The email must be a string.'] }],
      ['a missing first name', { first_name: undefined }, { first_name: ['The first name field is required.'] }],
      ['a blank first name', { first_name: '   ' }, { first_name: ['The first name field is required.'] }],
      [
        'a first name over 100 characters',
        { first_name: 'f'.repeat(101) },
        { first_name: ['The first name must not be greater than 100 characters.'] },
      ],
      [
        'a first name with a NUL character',
        { first_name: 'a\u0000b' },
        { first_name: ['The first name format is invalid.'] },
      ],
      ['a missing last name', { last_name: undefined }, { last_name: ['The last name field is required.'] }],
      [
        'a last name over 100 characters',
        { last_name: 'l'.repeat(101) },
        { last_name: ['The last name must not be greater than 100 characters.'] },
      ],
      [
        'is_admin that is not a boolean',
        { is_admin: 'yes' },
        { is_admin: ['The is admin field must be true or false.'] },
      ],
      ['an unknown locale', { locale: 'de' }, { locale: ['The selected locale is invalid.'] }],
      ['active that is not a boolean', { active: 1 }, { active: ['The active field must be true or false.'] }],
    ];
    it.each(validationCases)(
      'answers 422 in the general form for %s, writing nothing',
      async (_name, change, errors) => {
        const id = platformId();
        const res = await putUser(id, { ...person(id), ...change });
        expect(res).toEqual({ status: 422, body: { success: false, message: INVALID, errors } });
        expect(await userRow(id)).toBeUndefined();
      },
    );

    it('answers 422 for an email another user has (in any case), changing nothing', async () => {
      const id = platformId();
      const res = await putUser(id, { ...person(id), email: member.email.toUpperCase() });
      expect(res).toEqual({
        status: 422,
        body: { success: false, message: INVALID, errors: { email: ['The email has already been taken.'] } },
      });
      expect(await userRow(id)).toBeUndefined();
      const existing = platformId();
      await putUser(existing, person(existing));
      expect((await putUser(existing, { ...person(existing), email: member.email })).status).toBe(422);
      expect((await userRow(existing))!.email).toBe(person(existing).email);
    });

    it.each(['0', '-1', 'abc', '2147483648'])('answers 422 for the user id %s', async (id) => {
      const res = await putUser(id, person(1));
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ success: false, message: INVALID, errors: { id: [expect.any(String)] } });
    });

    it('answers a body that is not a JSON object with 422', async () => {
      const res = await t.app.inject({
        method: 'PUT',
        url: `/api/admin/users/${platformId()}`,
        headers: { ...admin.auth, 'content-type': 'application/json' },
        payload: '[1]',
      });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({
        success: false,
        message: INVALID,
        errors: { body: ['The request body must be a JSON object.'] },
      });
    });
  });

  describe('deactivation', () => {
    it('active false revokes every token of the user at once; they answer 401 on the next request', async () => {
      const { id, token } = await signedIn();
      const second = (await mint(id)).body.token as string;
      expect((await ticketsWith(token)).statusCode).toBe(200);
      const res = await putUser(id, person(id, { active: false }));
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ data: { active: false }, tokens_revoked: 2 });
      for (const old of [token, second]) {
        const refused = await ticketsWith(old);
        expect(refused.statusCode).toBe(401);
        expect(refused.json()).toEqual({ message: 'Unauthenticated.' });
      }
      expect((await tokenRows(id)).every((r) => r.revoked_at !== null)).toBe(true);
      // Retrying the deactivation is harmless.
      expect((await putUser(id, person(id, { active: false }))).body).toMatchObject({ tokens_revoked: 0 });
    });

    it('refuses a token of an inactive user even when the flag is set behind the API (SQL), and on reactivation', async () => {
      const { id, token } = await signedIn();
      await t.db.updateTable('users').set({ active: 0 }).where('id', '=', id).execute();
      expect((await ticketsWith(token)).statusCode).toBe(401);
      await t.db.updateTable('users').set({ active: 1 }).where('id', '=', id).execute();
      expect((await ticketsWith(token)).statusCode).toBe(200);
    });

    it('keeps old tokens dead after reactivation; a new token works', async () => {
      const { id, token } = await signedIn();
      await putUser(id, person(id, { active: false }));
      const refused = await mint(id);
      expect(refused).toEqual({
        status: 422,
        body: {
          success: false,
          message: INVALID,
          errors: { user: ['The user is inactive: set active to true first.'] },
        },
      });
      expect((await putUser(id, person(id, { active: true }))).body.data.active).toBe(true);
      expect((await ticketsWith(token)).statusCode).toBe(401);
      const fresh = await mint(id);
      expect((await ticketsWith(fresh.body.token)).statusCode).toBe(200);
    });

    it('creates a user inactive when asked, who cannot be given a token', async () => {
      const id = platformId();
      expect((await putUser(id, person(id, { active: false }))).body.data.active).toBe(false);
      expect((await mint(id)).status).toBe(422);
      expect(await tokenRows(id)).toEqual([]);
    });
  });

  describe('POST /api/admin/users/{id}/tokens', () => {
    it('answers 201 {success, id, name, token, expires_at}; the token signs in on a protected route', async () => {
      const id = platformId();
      await putUser(id, person(id));
      const res = await mint(id, { name: 'Firefox on Linux', expires_in_days: 30 });
      expect(res.status).toBe(201);
      expect(Object.keys(res.body).sort()).toEqual(['expires_at', 'id', 'name', 'success', 'token']);
      expect(res.body).toMatchObject({ success: true, name: 'Firefox on Linux' });
      const match = TOKEN.exec(res.body.token)!;
      expect(Number(match[1])).toBe(res.body.id);
      const days = (Date.parse(res.body.expires_at) - Date.now()) / 86_400_000;
      expect(days).toBeGreaterThan(29.9);
      expect(days).toBeLessThanOrEqual(30);
      const tickets = await ticketsWith(res.body.token);
      expect(tickets.statusCode).toBe(200);
      const me = await t.app.inject({
        method: 'POST',
        url: '/api/assistant/chat',
        headers: { authorization: `Bearer ${res.body.token}` },
        payload: { message: 'refund' },
      });
      const conversation = await t.db
        .selectFrom('assistant_conversations')
        .select('user_id')
        .where('id', '=', me.json().conversation_id)
        .executeTakeFirstOrThrow();
      expect(conversation.user_id).toBe(id);
    });

    it('stores only a hash of the secret', async () => {
      const { id, token } = await signedIn();
      const [row] = await tokenRows(id);
      expect(row!.token_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(JSON.stringify(row)).not.toContain(token.split('|')[1]);
    });

    it('takes no body, an empty object or nulls: name "default", no expiry', async () => {
      const id = platformId();
      await putUser(id, person(id));
      const bare = await t.app.inject({ method: 'POST', url: `/api/admin/users/${id}/tokens`, headers: admin.auth });
      expect(bare.statusCode, bare.body).toBe(201);
      expect(bare.json()).toMatchObject({ name: 'default', expires_at: null });
      expect((await mint(id, {})).body).toMatchObject({ name: 'default', expires_at: null });
      expect((await mint(id, { expires_in_days: null })).body).toMatchObject({ expires_at: null });
    });

    it('answers 404 {message} for a user that does not exist', async () => {
      const id = platformId();
      expect(await mint(id)).toEqual({ status: 404, body: { message: `No query results for model [User] ${id}` } });
    });

    const cases: Array<[string, unknown, Record<string, string[]>]> = [
      ['an empty name', { name: '' }, { name: ['The name field is required.'] }],
      [
        'a name over 100 characters',
        { name: 'n'.repeat(101) },
        { name: ['The name must not be greater than 100 characters.'] },
      ],
      ['a name that is not a string', { name: 7 }, { name: ['The name must be a string.'] }],
      ['0 days', { expires_in_days: 0 }, { expires_in_days: ['The expires in days must be at least 1.'] }],
      [
        'more than 36500 days',
        { expires_in_days: 36_501 },
        { expires_in_days: ['The expires in days must not be greater than 36500.'] },
      ],
      [
        'a fraction of a day',
        { expires_in_days: 1.5 },
        { expires_in_days: ['The expires in days must be an integer.'] },
      ],
      ['days as text', { expires_in_days: '30' }, { expires_in_days: ['The expires in days must be an integer.'] }],
    ];
    it.each(cases)('answers 422 in the general form for %s, making no token', async (_name, body, errors) => {
      const id = platformId();
      await putUser(id, person(id));
      expect(await mint(id, body)).toEqual({ status: 422, body: { success: false, message: INVALID, errors } });
      expect(await tokenRows(id)).toEqual([]);
    });

    it('accepts the bounds: 1 and 36500 days, a name of 100 characters', async () => {
      const id = platformId();
      await putUser(id, person(id));
      expect((await mint(id, { expires_in_days: 1 })).status).toBe(201);
      expect((await mint(id, { expires_in_days: 36_500, name: 'n'.repeat(100) })).status).toBe(201);
    });
  });

  describe('GET /api/admin/users/{id}/tokens', () => {
    it('lists the tokens that still sign in, newest first, without their secret', async () => {
      const { id, tokenId } = await signedIn();
      const second = (await mint(id, { name: 'phone', expires_in_days: 7 })).body;
      const revoked = (await mint(id, { name: 'old' })).body;
      const expired = (await mint(id, { name: 'expired' })).body;
      await send('DELETE', `/api/admin/users/${id}/tokens/${revoked.id}`);
      await t.db
        .updateTable('personal_access_tokens')
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .where('id', '=', expired.id)
        .execute();
      const res = await send('GET', `/api/admin/users/${id}/tokens`);
      expect(res.status).toBe(200);
      expect(res.body.success).toBe(true);
      expect(res.body.data.map((tk: { id: number }) => tk.id)).toEqual([second.id, tokenId]);
      expect(res.body.data[0]).toEqual({
        id: second.id,
        name: 'phone',
        last_used_at: null,
        expires_at: second.expires_at,
        created_at: expect.any(String),
      });
      expect(JSON.stringify(res.body)).not.toMatch(/\|[A-Za-z0-9]{40}|token_hash/);
    });

    it('shows when a token was last used', async () => {
      const { id, token } = await signedIn();
      await ticketsWith(token);
      await expect
        .poll(async () => (await send('GET', `/api/admin/users/${id}/tokens`)).body.data[0].last_used_at)
        .not.toBeNull();
    });

    it('answers 404 for a user that does not exist', async () => {
      const id = platformId();
      expect(await send('GET', `/api/admin/users/${id}/tokens`)).toEqual({
        status: 404,
        body: { message: `No query results for model [User] ${id}` },
      });
    });
  });

  describe('DELETE /api/admin/users/{id}/tokens/{token_id}', () => {
    it('revokes the token: it answers 401 on the next request; again: 200 with count 0', async () => {
      const { id, token, tokenId } = await signedIn();
      const other = (await mint(id)).body.token as string;
      const res = await send('DELETE', `/api/admin/users/${id}/tokens/${tokenId}`);
      expect(res).toEqual({ status: 200, body: { success: true, message: 'Token revoked.', count: 1 } });
      expect((await ticketsWith(token)).statusCode).toBe(401);
      expect((await ticketsWith(other)).statusCode).toBe(200);
      expect(await send('DELETE', `/api/admin/users/${id}/tokens/${tokenId}`)).toEqual({
        status: 200,
        body: { success: true, message: 'Token revoked.', count: 0 },
      });
    });

    it("answers 404 for another user's token, which keeps working", async () => {
      const mine = await signedIn();
      const theirs = await signedIn();
      const res = await send('DELETE', `/api/admin/users/${mine.id}/tokens/${theirs.tokenId}`);
      expect(res).toEqual({
        status: 404,
        body: { message: `No query results for model [PersonalAccessToken] ${theirs.tokenId}` },
      });
      expect((await ticketsWith(theirs.token)).statusCode).toBe(200);
    });

    it('answers 404 for a token or a user that does not exist', async () => {
      const { id } = await signedIn();
      expect(await send('DELETE', `/api/admin/users/${id}/tokens/999999`)).toEqual({
        status: 404,
        body: { message: 'No query results for model [PersonalAccessToken] 999999' },
      });
      const unknown = platformId();
      expect(await send('DELETE', `/api/admin/users/${unknown}/tokens/1`)).toEqual({
        status: 404,
        body: { message: `No query results for model [User] ${unknown}` },
      });
    });

    it('answers 422 for a token id that is not a positive integer', async () => {
      const { id } = await signedIn();
      const res = await send('DELETE', `/api/admin/users/${id}/tokens/abc`);
      expect(res).toEqual({
        status: 422,
        body: { success: false, message: INVALID, errors: { token_id: ['The token id must be an integer.'] } },
      });
    });
  });

  describe('DELETE /api/admin/users/{id}/tokens', () => {
    it("revokes every token of the user and no one else's; again: count 0", async () => {
      const { id, token } = await signedIn();
      const second = (await mint(id)).body.token as string;
      const bystander = await signedIn();
      const res = await send('DELETE', `/api/admin/users/${id}/tokens`);
      expect(res).toEqual({ status: 200, body: { success: true, message: 'Tokens revoked.', count: 2 } });
      expect((await ticketsWith(token)).statusCode).toBe(401);
      expect((await ticketsWith(second)).statusCode).toBe(401);
      expect((await ticketsWith(bystander.token)).statusCode).toBe(200);
      expect((await send('DELETE', `/api/admin/users/${id}/tokens`)).body.count).toBe(0);
      expect((await send('GET', `/api/admin/users/${id}/tokens`)).body.data).toEqual([]);
    });

    it('answers 404 for a user that does not exist', async () => {
      const id = platformId();
      expect(await send('DELETE', `/api/admin/users/${id}/tokens`)).toEqual({
        status: 404,
        body: { message: `No query results for model [User] ${id}` },
      });
    });
  });
});
