// A mirrored user's email changes: the tickets that are theirs follow the spec's ownership rule
// (user id or email matches) at once, through the answers GET /api/tickets and /stats keep per
// user, and the notification list (kept per user too) stays right.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import type { TestUser } from '../helpers/factories.js';
import { answerVersion } from '../../src/db/answer-versions.js';

let nextId = 800_000;
const platformId = () => ++nextId;

describe("a mirrored user's email changes", () => {
  let t: TestApp;
  let admin: TestUser;

  beforeAll(async () => {
    t = await buildTestApp({ config: { TICKETS_CACHE_MB: 16, NOTIFICATIONS_CACHE_MB: 16 } });
    admin = await t.makeUser({ admin: true });
  });
  afterAll(() => t.close());

  const call = async (
    method: 'GET' | 'PUT' | 'POST',
    url: string,
    headers: Record<string, string>,
    payload?: object,
  ) => {
    const res = await t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
    return { status: res.statusCode, body: res.json() };
  };

  /** A user mirrored through the API with a token from it, as a platform would make them. */
  async function mirrored(email: string) {
    const id = platformId();
    const body = { email, first_name: 'Ada', last_name: 'Lovelace' };
    expect((await call('PUT', `/api/admin/users/${id}`, admin.auth, body)).status).toBe(201);
    const minted = await call('POST', `/api/admin/users/${id}/tokens`, admin.auth, {});
    return { id, body, auth: { authorization: `Bearer ${minted.body.token}` } };
  }

  /** A ticket left without an account (as an anonymous escalation leaves one), written with SQL. */
  async function ticketByEmail(email: string, subject: string): Promise<number> {
    const now = new Date().toISOString();
    const row = await t.db
      .insertInto('tickets')
      .values({
        tracking_code: `TK-${Math.random().toString(36).slice(2, 10).toUpperCase().padEnd(8, 'Q')}`,
        user_id: null,
        email,
        subject,
        message: 'Written before the account had this address.',
        status: 'open',
        priority: 'low',
        category: null,
        source: 'api',
        assignee_id: null,
        sla_deadline: new Date(Date.now() + 86_400_000).toISOString(),
        first_response_due_at: new Date(Date.now() + 86_400_000).toISOString(),
        first_response_at: null,
        resolved_at: null,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  const subjects = async (auth: Record<string, string>) => {
    const res = await call('GET', '/api/tickets', auth);
    expect(res.status).toBe(200);
    return (res.body.data as Array<{ subject: string }>).map((x) => x.subject).sort();
  };
  const openCount = async (auth: Record<string, string>) => (await call('GET', '/api/tickets/stats', auth)).body;

  it("keeps the tickets with the user's id, drops those matched only by the old address, adds those with the new one, at once", async () => {
    const user = await mirrored('old-address@platform.test');
    const own = await call('POST', '/api/tickets', user.auth, {
      subject: 'Mine by account',
      message: 'My card was charged twice for one order.',
    });
    expect(own.status).toBe(201);
    const byOld = await ticketByEmail('old-address@platform.test', 'Sent from the old address');
    const byNew = await ticketByEmail('new-address@platform.test', 'Sent from the new address');

    // Read twice so the second answer comes from the per-user answer cache.
    expect(await subjects(user.auth)).toEqual(['Mine by account', 'Sent from the old address']);
    expect(await subjects(user.auth)).toEqual(['Mine by account', 'Sent from the old address']);
    const statsBefore = await openCount(user.auth);
    await openCount(user.auth);

    const changed = await call('PUT', `/api/admin/users/${user.id}`, admin.auth, {
      ...user.body,
      email: 'New-Address@platform.test',
    });
    expect(changed.status).toBe(200);
    expect(changed.body.data.email).toBe('new-address@platform.test');

    expect(await subjects(user.auth)).toEqual(['Mine by account', 'Sent from the new address']);
    expect(await openCount(user.auth)).toEqual(statsBefore);
    expect((await call('GET', `/api/tickets/${byOld}`, user.auth)).status).toBe(404);
    expect((await call('GET', `/api/tickets/${byNew}`, user.auth)).status).toBe(200);
    // Nothing was rewritten: the rule alone moved them.
    const rows = await t.db
      .selectFrom('tickets')
      .select(['id', 'user_id', 'email'])
      .where('id', 'in', [byOld, byNew])
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { id: byOld, user_id: null, email: 'old-address@platform.test' },
      { id: byNew, user_id: null, email: 'new-address@platform.test' },
    ]);
  });

  it('reflects an email changed with plain SQL on the next request too (a trigger raises the version)', async () => {
    const user = await mirrored('sql-before@platform.test');
    await ticketByEmail('sql-after@platform.test', 'For the address set by SQL');
    expect(await subjects(user.auth)).toEqual([]);
    expect(await subjects(user.auth)).toEqual([]);
    await sql`update users set email = ${'sql-after@platform.test'} where id = ${user.id}`.execute(t.db);
    expect(await subjects(user.auth)).toEqual(['For the address set by SQL']);
  });

  it('raises the tickets version only when the email really changes', async () => {
    const user = await mirrored('steady@platform.test');
    const version = () => answerVersion(t.db, user.id, 'tickets');
    const start = await version();
    await call('PUT', `/api/admin/users/${user.id}`, admin.auth, user.body);
    await call('PUT', `/api/admin/users/${user.id}`, admin.auth, { ...user.body, locale: 'fa' });
    expect(await version()).toBe(start);
    await call('PUT', `/api/admin/users/${user.id}`, admin.auth, { ...user.body, email: 'moved@platform.test' });
    expect(await version()).toBeGreaterThan(start);
  });

  it('keeps the notification list right across an email change', async () => {
    const user = await mirrored('notified@platform.test');
    const projectId = platformId();
    await call('PUT', `/api/admin/projects/${projectId}`, admin.auth, {
      title: 'Solar farm',
      owner_id: user.id,
      status: 'approved',
    });
    const list = async () => {
      const res = await call('GET', '/api/notifications', user.auth);
      expect(res.status).toBe(200);
      return (res.body as Array<{ data: { status: string } }>).map((n) => n.data.status);
    };
    expect(await list()).toEqual(['approved']);
    expect(await list()).toEqual(['approved']);
    await call('PUT', `/api/admin/users/${user.id}`, admin.auth, { ...user.body, email: 'notified-new@platform.test' });
    expect(await list()).toEqual(['approved']);
    await call('PUT', `/api/admin/projects/${projectId}`, admin.auth, {
      title: 'Solar farm',
      owner_id: user.id,
      status: 'archived',
    });
    expect(await list()).toEqual(['archived', 'approved']);
  });
});
