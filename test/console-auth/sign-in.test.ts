// Signing in to the staff console over real sockets: one-time links (single use, 15 minutes, a GET
// uses nothing, the POST's Origin checked), the session cookie (its attributes, stored as a hash),
// the anti-forgery checks on every state change, and where a cookie is and is not accepted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from '../helpers/factories.js';
import { FORBIDDEN } from '../helpers/staff-api.js';
import { ConsoleServer, secretOf, sha256 } from './helpers.js';

const UNAUTHENTICATED = { message: 'Unauthenticated.' };
const FORGERY = {
  success: false,
  message: 'This request must come from the console itself (X-CSRF-Token and Origin).',
};
const LINK_PATH = /^\/api\/console\/links\/[A-Za-z0-9_-]{43}$/;

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

describe('POST /api/admin/users/{id}/console-links', () => {
  it('answers 201 with a link on the service and its expiry 15 minutes ahead, and stores only its hash', async () => {
    const before = Date.now();
    const res = await s.request('POST', `/api/admin/users/${support.id}/console-links`, { headers: admin.auth });
    expect(res.status).toBe(201);
    expect(Object.keys(res.json).sort()).toEqual(['data', 'success']);
    expect(res.json.success).toBe(true);
    const url = new URL(res.json.data.url);
    expect(url.origin).toBe(s.url);
    expect(url.pathname).toMatch(LINK_PATH);
    const expires = Date.parse(res.json.data.expires_at);
    expect(expires - before).toBeGreaterThanOrEqual(15 * 60_000 - 1000);
    expect(expires - Date.now()).toBeLessThanOrEqual(15 * 60_000);
    const rows = await s.db
      .selectFrom('console_links')
      .select(['token_hash'])
      .where('user_id', '=', support.id)
      .execute();
    const secret = secretOf(url.pathname);
    expect(rows.map((r) => r.token_hash)).toContain(sha256(secret));
    expect(rows.map((r) => r.token_hash)).not.toContain(secret);
  });

  it('answers 401 without a token and 403 for a member or support token', async () => {
    const path = `/api/admin/users/${support.id}/console-links`;
    expect(await s.request('POST', path)).toMatchObject({ status: 401, json: UNAUTHENTICATED });
    expect(await s.request('POST', path, { headers: member.auth })).toMatchObject({ status: 403, json: FORBIDDEN });
    expect(await s.request('POST', path, { headers: support.auth })).toMatchObject({ status: 403, json: FORBIDDEN });
  });

  it('answers 404 for an unknown user, 400 for a member or an inactive user, 422 for an id that is not one', async () => {
    expect(await s.request('POST', '/api/admin/users/99999999/console-links', { headers: admin.auth })).toMatchObject({
      status: 404,
      json: { message: 'No query results for model [User] 99999999' },
    });
    expect(
      await s.request('POST', `/api/admin/users/${member.id}/console-links`, { headers: admin.auth }),
    ).toMatchObject({
      status: 400,
      json: { success: false, message: 'The user is not staff: give them the support or admin role first.' },
    });
    const gone = await s.person('support');
    await s.db.updateTable('users').set({ active: 0 }).where('id', '=', gone.id).execute();
    const inactive = await s.request('POST', `/api/admin/users/${gone.id}/console-links`, { headers: admin.auth });
    expect(inactive.status).toBe(400);
    expect(inactive.json).toEqual({ success: false, message: 'The user is inactive: set active to true first.' });
    const bad = await s.request('POST', '/api/admin/users/abc/console-links', { headers: admin.auth });
    expect(bad.status).toBe(422);
    expect(bad.json.message).toBe('The given data was invalid.');
  });
});

describe('the link', () => {
  it('GET shows a page with one Sign in button posting to itself, under a strict policy, and uses nothing up', async () => {
    const path = await s.link(admin, support.id);
    for (let i = 0; i < 3; i++) {
      const page = await s.request('GET', path);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(page.headers.get('referrer-policy')).toBe('same-origin');
      expect(page.headers.get('cache-control')).toBe('no-store');
      expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
      expect(page.headers.get('content-security-policy')).toContain("form-action 'self'");
      expect(page.text).toContain('<form method="post"><button type="submit">Sign in</button></form>');
      expect(page.text).not.toMatch(/<script|action=/i);
    }
    expect((await s.request('HEAD', path)).status).toBe(200);
    expect((await s.useLink(path)).status).toBe(303);
  });

  it('POST from the service itself signs in: 303 to /console/ with an HttpOnly, SameSite=Strict cookie stored as a hash', async () => {
    const used = await s.useLink(await s.link(admin, support.id));
    expect(used.status).toBe(303);
    expect(used.headers.get('location')).toBe('/console/');
    const setCookie = used.headers.get('set-cookie')!;
    expect(setCookie).toMatch(
      /^console_session=[A-Za-z0-9_-]{43}; Path=\/api; Max-Age=\d+; HttpOnly; SameSite=Strict$/,
    );
    const secret = setCookie.split(';')[0]!.split('=')[1]!;
    const row = await s.db
      .selectFrom('console_sessions')
      .select(['token_hash'])
      .where('token_hash', '=', sha256(secret))
      .executeTakeFirst();
    expect(row).toBeDefined();
    expect(
      await s.db.selectFrom('console_sessions').select('id').where('token_hash', '=', secret).executeTakeFirst(),
    ).toBeUndefined();
  });

  it('works once: a second POST and a GET after use answer 410', async () => {
    const path = await s.link(admin, support.id);
    expect((await s.useLink(path)).status).toBe(303);
    const again = await s.useLink(path);
    expect(again.status).toBe(410);
    expect(again.headers.get('set-cookie')).toBeNull();
    expect(again.text).toContain('This sign-in link has expired or was already used.');
    expect((await s.request('GET', path)).status).toBe(410);
  });

  it('answers 410 for an expired or an unknown link', async () => {
    const path = await s.link(admin, support.id);
    await s.db
      .updateTable('console_links')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('token_hash', '=', sha256(secretOf(path)))
      .execute();
    expect((await s.request('GET', path)).status).toBe(410);
    expect((await s.useLink(path)).status).toBe(410);
    expect((await s.useLink('/api/console/links/not-a-link')).status).toBe(410);
    expect((await s.request('GET', `/api/console/links/${'A'.repeat(43)}`)).status).toBe(410);
  });

  it('refuses a POST from another origin, with Origin null or without Origin, and leaves the link usable', async () => {
    const path = await s.link(admin, support.id);
    for (const origin of ['https://evil.example', 'null', null, s.url.replace('127.0.0.1', 'localhost')]) {
      const refused = await s.useLink(path, origin);
      expect(refused.status).toBe(403);
      expect(refused.headers.get('set-cookie')).toBeNull();
      expect(refused.text).toContain('This sign-in was not sent from the link’s own page.');
    }
    expect((await s.useLink(path)).status).toBe(303);
  });

  it('does not sign in a user who lost the staff role after the link was made', async () => {
    const later = await s.person('support');
    const path = await s.link(admin, later.id);
    await s.db.updateTable('users').set({ role: 'member' }).where('id', '=', later.id).execute();
    expect((await s.useLink(path)).status).toBe(410);
  });
});

describe('GET /api/console/session', () => {
  it('answers the user, the anti-forgery token and both expiries', async () => {
    const signed = await s.signIn(admin, support.id);
    const res = await s.request('GET', '/api/console/session', { headers: { cookie: signed.cookie } });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      success: true,
      data: {
        user: {
          id: support.id,
          email: support.email,
          first_name: support.first_name,
          last_name: support.last_name,
          role: 'support',
          locale: 'en',
        },
        csrf_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        expires_at: expect.any(String),
        idle_expires_at: expect.any(String),
      },
    });
    const { expires_at, idle_expires_at } = res.json.data;
    expect(Math.abs(Date.parse(expires_at) - Date.now() - 12 * 3_600_000)).toBeLessThan(60_000);
    expect(Math.abs(Date.parse(idle_expires_at) - Date.now() - 60 * 60_000)).toBeLessThan(60_000);
    expect(res.json.data.csrf_token).not.toBe(signed.cookie.split('=')[1]);
  });

  it('answers 401 without a cookie, with an unknown one, with a bearer token alone, and after the idle or absolute end', async () => {
    expect(await s.request('GET', '/api/console/session')).toMatchObject({ status: 401, json: UNAUTHENTICATED });
    const unknown = { cookie: `console_session=${'B'.repeat(43)}` };
    expect(await s.request('GET', '/api/console/session', { headers: unknown })).toMatchObject({ status: 401 });
    expect(await s.request('GET', '/api/console/session', { headers: admin.auth })).toMatchObject({ status: 401 });
    for (const column of ['idle_expires_at', 'expires_at'] as const) {
      const signed = await s.signIn(admin, support.id);
      await s.db
        .updateTable('console_sessions')
        .set({ [column]: new Date(Date.now() - 1000).toISOString() })
        .where('token_hash', '=', sha256(signed.cookie.split('=')[1]!))
        .execute();
      expect(await s.request('GET', '/api/console/session', { headers: { cookie: signed.cookie } })).toMatchObject({
        status: 401,
        json: UNAUTHENTICATED,
      });
    }
  });
});

describe('requests signed in by the cookie', () => {
  it('refuses a state change without X-CSRF-Token, with a wrong one, or with a missing, null or foreign Origin', async () => {
    const signed = await s.signIn(admin, support.id);
    const good = s.consoleHeaders(signed);
    const attempts: Record<string, string>[] = [
      { cookie: signed.cookie, origin: s.url },
      { ...good, 'x-csrf-token': 'A'.repeat(43) },
      { cookie: signed.cookie, 'x-csrf-token': signed.csrf },
      { ...good, origin: 'null' },
      { ...good, origin: 'https://evil.example' },
    ];
    for (const headers of attempts) {
      const res = await s.request('PUT', '/api/console/preferences', { headers, body: { locale: 'fa' } });
      expect(res.status).toBe(403);
      expect(res.json).toEqual(FORGERY);
    }
    const row = await s.db.selectFrom('users').select('locale').where('id', '=', support.id).executeTakeFirstOrThrow();
    expect(row.locale).toBe('en');
  });

  it('is refused on member routes (401), even for a GET', async () => {
    const signed = await s.signIn(admin, support.id);
    expect(await s.request('GET', '/api/tickets', { headers: { cookie: signed.cookie } })).toMatchObject({
      status: 401,
      json: UNAUTHENTICATED,
    });
    expect(await s.request('GET', '/api/notifications', { headers: { cookie: signed.cookie } })).toMatchObject({
      status: 401,
    });
  });

  it('is accepted on staff routes for support staff, and refused on admin routes for them (403)', async () => {
    const signed = await s.signIn(admin, support.id);
    expect((await s.request('GET', '/api/admin/staff', { headers: { cookie: signed.cookie } })).status).toBe(200);
    expect((await s.request('GET', '/api/admin/tickets', { headers: { cookie: signed.cookie } })).status).toBe(200);
    expect(
      await s.request('GET', `/api/admin/users/${support.id}/console-sessions`, { headers: { cookie: signed.cookie } }),
    ).toMatchObject({ status: 403, json: FORBIDDEN });
    const mine = await s.signIn(admin, admin.id);
    expect(
      (await s.request('GET', `/api/admin/users/${support.id}/console-sessions`, { headers: { cookie: mine.cookie } }))
        .status,
    ).toBe(200);
  });

  it('leaves bearer tokens as they were: no anti-forgery header needed, and a bearer wins over a cookie', async () => {
    const signed = await s.signIn(admin, support.id);
    const res = await s.request('PUT', `/api/admin/users/${member.id}`, {
      headers: admin.auth,
      body: { email: member.email, first_name: member.first_name, last_name: member.last_name },
    });
    expect(res.status).toBe(200);
    const both = await s.request('GET', '/api/admin/staff', { headers: { ...member.auth, cookie: signed.cookie } });
    expect(both).toMatchObject({ status: 403, json: FORBIDDEN });
  });
});

describe('sign-out and the end of sessions', () => {
  it('DELETE /api/console/session needs the anti-forgery header, then ends the session and clears the cookie', async () => {
    const signed = await s.signIn(admin, support.id);
    expect(await s.request('DELETE', '/api/console/session', { headers: { cookie: signed.cookie } })).toMatchObject({
      status: 403,
      json: FORGERY,
    });
    const out = await s.request('DELETE', '/api/console/session', { headers: s.consoleHeaders(signed) });
    expect(out.status).toBe(200);
    expect(out.json).toEqual({ success: true, message: 'Signed out.' });
    expect(out.headers.get('set-cookie')).toBe('console_session=; Path=/api; Max-Age=0; HttpOnly; SameSite=Strict');
    expect(await s.request('GET', '/api/console/session', { headers: { cookie: signed.cookie } })).toMatchObject({
      status: 401,
    });
    expect(await s.request('DELETE', '/api/console/session')).toMatchObject({ status: 401, json: UNAUTHENTICATED });
  });

  it('deactivating the user ends their sessions', async () => {
    const staff = await s.person('support');
    const signed = await s.signIn(admin, staff.id);
    const res = await s.request('PUT', `/api/admin/users/${staff.id}`, {
      headers: admin.auth,
      body: { email: staff.email, first_name: 'A', last_name: 'B', active: false },
    });
    expect(res.status).toBe(200);
    await s.request('PUT', `/api/admin/users/${staff.id}`, {
      headers: admin.auth,
      body: { email: staff.email, first_name: 'A', last_name: 'B', active: true },
    });
    expect(await s.request('GET', '/api/console/session', { headers: { cookie: signed.cookie } })).toMatchObject({
      status: 401,
    });
  });

  it('removing the role ends their sessions; moving between support and admin keeps them', async () => {
    const staff = await s.person('support');
    const signed = await s.signIn(admin, staff.id);
    const put = (role: string) =>
      s.request('PUT', `/api/admin/users/${staff.id}`, {
        headers: admin.auth,
        body: { email: staff.email, first_name: 'A', last_name: 'B', role },
      });
    expect((await put('admin')).json.data).toMatchObject({ role: 'admin', is_admin: true });
    expect((await s.request('GET', '/api/console/session', { headers: { cookie: signed.cookie } })).status).toBe(200);
    expect((await put('member')).json.data).toMatchObject({ role: 'member', is_admin: false });
    await put('support');
    expect((await s.request('GET', '/api/console/session', { headers: { cookie: signed.cookie } })).status).toBe(401);
  });
});

describe('housekeeping', () => {
  it('forgets links and sessions that ended more than a day ago at the next sign-in', async () => {
    const staff = await s.person('support');
    const old = await s.signIn(admin, staff.id);
    const stale = await s.link(admin, staff.id);
    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000).toISOString();
    await s.db
      .updateTable('console_sessions')
      .set({ revoked_at: twoDaysAgo })
      .where('token_hash', '=', sha256(old.cookie.split('=')[1]!))
      .execute();
    await s.db
      .updateTable('console_links')
      .set({ expires_at: twoDaysAgo })
      .where('token_hash', '=', sha256(secretOf(stale)))
      .execute();
    const recent = await s.link(admin, staff.id);
    await s.useLink(await s.link(admin, staff.id));
    const sessions = await s.db
      .selectFrom('console_sessions')
      .select('token_hash')
      .where('user_id', '=', staff.id)
      .execute();
    expect(sessions).toHaveLength(1);
    const links = await s.db.selectFrom('console_links').select('token_hash').where('user_id', '=', staff.id).execute();
    expect(links.map((l) => l.token_hash)).not.toContain(sha256(secretOf(stale)));
    expect(links.map((l) => l.token_hash)).toContain(sha256(secretOf(recent)));
  });
});

describe('behind a proxy with PUBLIC_URL set', () => {
  let proxied: ConsoleServer;
  let boss: TestUser;
  const PUBLIC = 'https://support.example.test';
  beforeAll(async () => {
    proxied = await ConsoleServer.start({ PUBLIC_URL: PUBLIC, TRUST_PROXY: 'true' });
    boss = await proxied.person('admin');
  }, 120_000);
  afterAll(() => proxied?.close());

  const viaProxy = (origin: string) => ({ origin, 'x-forwarded-proto': 'https' });

  it('builds links on PUBLIC_URL, checks Origin against it, and marks the cookie Secure over HTTPS', async () => {
    const res = await proxied.request('POST', `/api/admin/users/${boss.id}/console-links`, { headers: boss.auth });
    expect(res.json.data.url.startsWith(`${PUBLIC}/api/console/links/`)).toBe(true);
    const path = new URL(res.json.data.url).pathname;
    // The request's own origin is not the service's once PUBLIC_URL says otherwise.
    const own = await proxied.request('POST', path, { form: true, headers: { origin: proxied.url } });
    expect(own.status).toBe(403);
    const used = await proxied.request('POST', path, { form: true, headers: viaProxy(PUBLIC) });
    expect(used.status).toBe(303);
    const setCookie = used.headers.get('set-cookie')!;
    expect(setCookie).toMatch(/; HttpOnly; SameSite=Strict; Secure$/);
    const cookie = setCookie.split(';')[0]!;
    const session = await proxied.request('GET', '/api/console/session', { headers: { cookie } });
    const headers = { cookie, 'x-csrf-token': session.json.data.csrf_token };
    const body = { locale: 'fa' };
    expect(
      (await proxied.request('PUT', '/api/console/preferences', { headers: { ...headers, origin: proxied.url }, body }))
        .status,
    ).toBe(403);
    expect(
      (await proxied.request('PUT', '/api/console/preferences', { headers: { ...headers, origin: PUBLIC }, body }))
        .status,
    ).toBe(200);
  });
});
