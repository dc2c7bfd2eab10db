// The rest of the console's sign-in API over real sockets: sign-in by mail (the same answer for any
// address, the outbox, the per-address limit), preferences, the staff list, a user's sessions in
// the admin integration API, roles through PUT /api/admin/users/{id}, and the operator commands.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from '../helpers/factories.js';
import { runCli } from '../helpers/process.js';
import { FORBIDDEN } from '../helpers/staff-api.js';
import { ConsoleServer } from './helpers.js';

const UNAUTHENTICATED = { message: 'Unauthenticated.' };
const REQUESTED = {
  success: true,
  message: 'If the address belongs to a staff member, a sign-in link is on its way.',
};

let s: ConsoleServer;
let admin: TestUser;
let support: TestUser;
let member: TestUser;

beforeAll(async () => {
  s = await ConsoleServer.start();
  admin = await s.person('admin');
  support = await s.person('support');
  member = await s.person('member');
}, 120_000);
afterAll(() => s?.close());

const mailsTo = (address: string) =>
  s.db
    .selectFrom('mail_outbox')
    .select(['subject', 'text_body'])
    .where('to_address', '=', address)
    .orderBy('id')
    .execute();

describe('POST /api/console/sign-in-requests', () => {
  it('answers 202 alike for staff, a member and an unknown address, and mails a working link only to staff', async () => {
    for (const email of [support.email, member.email, 'nobody@example.com', support.email.toUpperCase()]) {
      const res = await s.request('POST', '/api/console/sign-in-requests', { body: { email } });
      expect(res.status).toBe(202);
      expect(res.json).toEqual(REQUESTED);
    }
    expect(await mailsTo(member.email)).toEqual([]);
    expect(await mailsTo('nobody@example.com')).toEqual([]);
    const mails = await mailsTo(support.email);
    expect(mails).toHaveLength(2);
    expect(mails[0]!.subject).toBe('Your sign-in link to the support console');
    const url = /(http:\/\/\S+)/.exec(mails[0]!.text_body)![1]!;
    expect(url.startsWith(`${s.url}/api/console/links/`)).toBe(true);
    expect((await s.useLink(new URL(url).pathname)).status).toBe(303);
  });

  it(`sends at most 3 links to one address in 15 minutes, answering the same`, async () => {
    const staff = await s.person('admin');
    for (let i = 0; i < 5; i++) {
      const res = await s.request('POST', '/api/console/sign-in-requests', { body: { email: staff.email } });
      expect(res).toMatchObject({ status: 202, json: REQUESTED });
    }
    expect(await mailsTo(staff.email)).toHaveLength(3);
  });

  it('answers 422 for a missing or malformed email', async () => {
    for (const body of [{}, { email: 'not-an-address' }, { email: 5 }]) {
      const res = await s.request('POST', '/api/console/sign-in-requests', { body });
      expect(res.status).toBe(422);
      expect(res.json.message).toBe('The given data was invalid.');
      expect(Object.keys(res.json.errors)).toEqual(['email']);
    }
  });
});

describe('/api/console/preferences', () => {
  it('remembers the language: PUT then GET, and the session shows it', async () => {
    const signed = await s.signIn(admin, support.id);
    const put = await s.request('PUT', '/api/console/preferences', {
      headers: s.consoleHeaders(signed),
      body: { locale: 'fa' },
    });
    expect(put.status).toBe(200);
    expect(put.json).toEqual({ success: true, message: 'ترجیحات ذخیره شد.' });
    const got = await s.request('GET', '/api/console/preferences', { headers: { cookie: signed.cookie } });
    expect(got.json).toEqual({ success: true, data: { locale: 'fa' } });
    const session = await s.request('GET', '/api/console/session', { headers: { cookie: signed.cookie } });
    expect(session.json.data.user.locale).toBe('fa');
    await s.request('PUT', '/api/console/preferences', { headers: s.consoleHeaders(signed), body: { locale: 'en' } });
  });

  it('answers 401 without a session, also for a bearer token (staff or member)', async () => {
    for (const headers of [{}, admin.auth, member.auth]) {
      expect(await s.request('GET', '/api/console/preferences', { headers })).toMatchObject({
        status: 401,
        json: UNAUTHENTICATED,
      });
      expect(await s.request('PUT', '/api/console/preferences', { headers, body: { locale: 'fa' } })).toMatchObject({
        status: 401,
        json: UNAUTHENTICATED,
      });
    }
  });

  it('answers 422 for a language it does not have', async () => {
    const signed = await s.signIn(admin, support.id);
    for (const body of [{ locale: 'de' }, {}]) {
      const res = await s.request('PUT', '/api/console/preferences', { headers: s.consoleHeaders(signed), body });
      expect(res.status).toBe(422);
      expect(res.json.message).toBe('The given data was invalid.');
      expect(Object.keys(res.json.errors)).toEqual(['locale']);
    }
  });
});

describe('GET /api/admin/staff', () => {
  it('lists active support staff and administrators, not members or inactive staff', async () => {
    const gone = await s.person('support');
    await s.db.updateTable('users').set({ active: 0 }).where('id', '=', gone.id).execute();
    const res = await s.request('GET', '/api/admin/staff', { headers: support.auth });
    expect(res.status).toBe(200);
    expect(res.json.success).toBe(true);
    const ids = res.json.data.map((m: { id: number }) => m.id);
    expect(ids).toContain(admin.id);
    expect(ids).toContain(support.id);
    expect(ids).not.toContain(member.id);
    expect(ids).not.toContain(gone.id);
    expect(res.json.data.find((m: { id: number }) => m.id === support.id)).toEqual({
      id: support.id,
      first_name: support.first_name,
      last_name: support.last_name,
      email: support.email,
      role: 'support',
    });
  });

  it('answers 401 without a credential and 403 for a member', async () => {
    expect(await s.request('GET', '/api/admin/staff')).toMatchObject({ status: 401, json: UNAUTHENTICATED });
    expect(await s.request('GET', '/api/admin/staff', { headers: member.auth })).toMatchObject({
      status: 403,
      json: FORBIDDEN,
    });
  });
});

describe("a user's console sessions (admin integration API)", () => {
  it('lists the live sessions, ends one (again: count 0), then all', async () => {
    const staff = await s.person('support');
    const first = await s.signIn(admin, staff.id);
    const second = await s.signIn(admin, staff.id);
    const base = `/api/admin/users/${staff.id}/console-sessions`;
    const list = await s.request('GET', base, { headers: admin.auth });
    expect(list.status).toBe(200);
    expect(list.json.data).toHaveLength(2);
    expect(Object.keys(list.json.data[0]).sort()).toEqual(
      ['created_at', 'expires_at', 'id', 'idle_expires_at', 'last_seen_at', 'user_agent'].sort(),
    );
    const [newest, oldest] = list.json.data as { id: number }[];
    const ended = await s.request('DELETE', `${base}/${oldest!.id}`, { headers: admin.auth });
    expect(ended.json).toEqual({ success: true, message: 'Session ended.', count: 1 });
    expect((await s.request('DELETE', `${base}/${oldest!.id}`, { headers: admin.auth })).json.count).toBe(0);
    expect((await s.request('GET', '/api/console/session', { headers: { cookie: first.cookie } })).status).toBe(401);
    expect((await s.request('GET', '/api/console/session', { headers: { cookie: second.cookie } })).status).toBe(200);
    const all = await s.request('DELETE', base, { headers: admin.auth });
    expect(all.json).toEqual({ success: true, message: 'Sessions ended.', count: 1 });
    expect((await s.request('GET', base, { headers: admin.auth })).json).toEqual({ success: true, data: [] });
    expect(newest!.id).toBeGreaterThan(oldest!.id);
  });

  it("answers 404 for an unknown user or another user's session, 401, 403 and 422", async () => {
    const staff = await s.person('support');
    await s.signIn(admin, staff.id);
    const theirs = (await s.request('GET', `/api/admin/users/${staff.id}/console-sessions`, { headers: admin.auth }))
      .json.data[0].id as number;
    expect(
      await s.request('DELETE', `/api/admin/users/${support.id}/console-sessions/${theirs}`, { headers: admin.auth }),
    ).toMatchObject({ status: 404, json: { message: `No query results for model [ConsoleSession] ${theirs}` } });
    expect(await s.request('GET', '/api/admin/users/99999999/console-sessions', { headers: admin.auth })).toMatchObject(
      { status: 404, json: { message: 'No query results for model [User] 99999999' } },
    );
    const base = `/api/admin/users/${staff.id}/console-sessions`;
    expect(await s.request('GET', base)).toMatchObject({ status: 401, json: UNAUTHENTICATED });
    expect(await s.request('DELETE', base, { headers: support.auth })).toMatchObject({ status: 403, json: FORBIDDEN });
    expect((await s.request('DELETE', `${base}/x`, { headers: admin.auth })).status).toBe(422);
  });
});

describe('roles through PUT /api/admin/users/{id}', () => {
  let nextId = 800_000;
  const put = (id: number, extra: Record<string, unknown>) =>
    s.request('PUT', `/api/admin/users/${id}`, {
      headers: admin.auth,
      body: { email: `role-${id}@example.com`, first_name: 'Rosa', last_name: 'Role', ...extra },
    });

  it('takes role, answers it with is_admin in step, and keeps is_admin working both ways', async () => {
    const id = ++nextId;
    const created = await put(id, { role: 'support' });
    expect(created.status).toBe(201);
    expect(created.json.data).toMatchObject({ role: 'support', is_admin: false });
    expect((await put(id, { is_admin: false })).json.data).toMatchObject({ role: 'support', is_admin: false });
    expect((await put(id, {})).json.data).toMatchObject({ role: 'support' });
    expect((await put(id, { is_admin: true })).json.data).toMatchObject({ role: 'admin', is_admin: true });
    expect((await put(id, { is_admin: false })).json.data).toMatchObject({ role: 'member', is_admin: false });
    expect((await put(id, { role: 'admin', is_admin: true })).json.data).toMatchObject({ role: 'admin' });
    const fresh = ++nextId;
    expect((await put(fresh, {})).json.data).toMatchObject({ role: 'member', is_admin: false });
  });

  it('a support token works staff routes and is refused on admin routes', async () => {
    expect((await s.request('GET', '/api/admin/tickets', { headers: support.auth })).status).toBe(200);
    expect(await s.request('GET', '/api/admin/feedback', { headers: support.auth })).toMatchObject({
      status: 403,
      json: FORBIDDEN,
    });
  });

  it('answers 422 for an unknown role or a role that disagrees with is_admin', async () => {
    const id = ++nextId;
    const unknown = await put(id, { role: 'agent' });
    expect(unknown.status).toBe(422);
    expect(Object.keys(unknown.json.errors)).toEqual(['role']);
    const conflict = await put(id, { role: 'support', is_admin: true });
    expect(conflict.status).toBe(422);
    expect(conflict.json).toEqual({
      success: false,
      message: 'The given data was invalid.',
      errors: { role: ['The role and is_admin disagree: is_admin is true exactly when the role is admin.'] },
    });
  });
});

describe('operator commands', () => {
  const cli = (...args: string[]) => runCli(args, s.database.env);

  it('user:create --role support and user:set-role print the user with its role', async () => {
    const created = await cli(
      'user:create',
      '--email',
      'cli-support@example.com',
      '--first-name',
      'C',
      '--last-name',
      'L',
      '--role',
      'support',
    );
    expect(created.code).toBe(0);
    const user = JSON.parse(created.stdout);
    expect(user).toMatchObject({ email: 'cli-support@example.com', role: 'support', is_admin: false });
    const set = await cli('user:set-role', '--email', 'cli-support@example.com', '--role', 'admin');
    expect(JSON.parse(set.stdout)).toMatchObject({ id: user.id, role: 'admin', is_admin: true });
    const bad = await cli('user:set-role', '--email', 'cli-support@example.com', '--role', 'agent');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--role must be one of member, support, admin');
  });

  it('console:link prints a link that signs in; refuses a member', async () => {
    const res = await cli('console:link', '--email', support.email);
    expect(res.code).toBe(0);
    const url = res.stdout.trim();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/console\/links\/[A-Za-z0-9_-]{43}$/);
    expect((await s.useLink(new URL(url).pathname)).status).toBe(303);
    const refused = await cli('console:link', '--email', member.email);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('is a member');
  });

  it('user:set-role --role member ends the console sessions', async () => {
    const staff = await s.person('support');
    const signed = await s.signIn(admin, staff.id);
    expect((await cli('user:set-role', '--email', staff.email, '--role', 'member')).code).toBe(0);
    expect((await s.request('GET', '/api/console/session', { headers: { cookie: signed.cookie } })).status).toBe(401);
  });
});

describe('the sign-in request limit per client address', () => {
  it('answers 429 with Retry-After after 20 requests in a minute', async () => {
    let refused: Awaited<ReturnType<typeof s.request>> | undefined;
    for (let i = 0; i < 22 && !refused; i++) {
      const res = await s.request('POST', '/api/console/sign-in-requests', { body: { email: 'x@example.com' } });
      if (res.status === 429) refused = res;
    }
    expect(refused?.json).toEqual({ message: 'Too Many Attempts.' });
    expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
