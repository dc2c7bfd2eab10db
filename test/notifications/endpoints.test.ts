import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotificationBuilder } from '../../src/modules/notifications/events.js';
import { insertNotifications, toRecord } from '../../src/modules/notifications/repository.js';
import { NotificationList } from '../../src/modules/notifications/schemas.js';
import { UNREAD_LIST_LIMIT } from '../../src/modules/notifications/service.js';
import { Value } from 'typebox/value';
import type { TestApp } from '../helpers/app.js';
import type { TestUser } from '../helpers/factories.js';
import { appWithUsers } from '../helpers/fixtures.js';
import { newId, storedFor, unreadOf } from './helpers.js';

const builder = new NotificationBuilder('https://app.example.com');

describe('notification endpoints', () => {
  let t: TestApp, alice: TestUser, bob: TestUser;
  beforeAll(async () => ({ t, alice, bob } = await appWithUsers({ alice: {}, bob: {} })));
  afterAll(() => t.close());

  /** Writes a notification for the user at the given time; returns its id. */
  async function notify(user: TestUser, createdAt = new Date().toISOString(), title = 'Project'): Promise<string> {
    const pending = builder.projectStatusChanged(
      { id: user.id, locale: 'en' },
      { id: newId(), title },
      'approved',
      null,
    );
    const [id] = await insertNotifications(t.db, [pending], createdAt);
    return id!;
  }

  async function freshUser(): Promise<TestUser> {
    return t.makeUser();
  }

  describe('GET /api/notifications', () => {
    it("returns a bare array of the caller's unread notifications, newest first", async () => {
      const user = await freshUser();
      const older = await notify(user, '2026-01-01T10:00:00.000Z', 'older');
      const newest = await notify(user, '2026-01-03T10:00:00.000Z', 'newest');
      const middle = await notify(user, '2026-01-02T10:00:00.000Z', 'middle');
      await notify(bob, '2026-01-04T10:00:00.000Z');
      const res = await t.app.inject({ method: 'GET', url: '/api/notifications', headers: user.auth });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(Array.isArray(body)).toBe(true);
      expect(body.map((n: any) => n.id)).toEqual([newest, middle, older]);
      expect(body[0]).toEqual({
        id: newest,
        type: 'project_status_changed',
        data: expect.objectContaining({ type: 'project_status_changed', project_title: 'newest' }),
        read_at: null,
        created_at: '2026-01-03T10:00:00.000Z',
      });
    });

    it('orders notifications of the same millisecond by when they were written, latest first', async () => {
      const user = await freshUser();
      const at = '2026-02-01T00:00:00.000Z';
      const ids = [];
      for (let i = 0; i < 5; i++) ids.push(await notify(user, at, `n${i}`));
      expect((await unreadOf(t, user)).map((n) => n.id)).toEqual(ids.reverse());
    });

    it('leaves out notifications already read', async () => {
      const user = await freshUser();
      const read = await notify(user);
      const unread = await notify(user);
      await t.app.inject({ method: 'POST', url: `/api/notifications/${read}`, headers: user.auth });
      expect((await unreadOf(t, user)).map((n) => n.id)).toEqual([unread]);
    });

    it(`returns at most ${UNREAD_LIST_LIMIT}, the newest ones`, async () => {
      const user = await freshUser();
      const base = Date.parse('2026-03-01T00:00:00.000Z');
      const pending = Array.from({ length: UNREAD_LIST_LIMIT + 5 }, (_, i) =>
        builder.projectStatusChanged({ id: user.id, locale: 'en' }, { id: i + 1, title: `p${i}` }, 'approved', null),
      );
      // Written in a scrambled order (8 and 105 are coprime), so insertion order is not time order.
      for (let k = 0; k < pending.length; k++) {
        const i = (k * 8) % pending.length;
        await insertNotifications(t.db, [pending[i]!], new Date(base + i * 1000).toISOString());
      }
      const list = await unreadOf(t, user);
      expect(list).toHaveLength(UNREAD_LIST_LIMIT);
      const newestFirst = Array.from({ length: UNREAD_LIST_LIMIT }, (_, i) => `p${UNREAD_LIST_LIMIT + 4 - i}`);
      expect(list.map((n: { data: { project_title: string } }) => n.data.project_title)).toEqual(newestFirst);
    });

    it('answers JSON that matches the documented schema and the parsed records exactly', async () => {
      const user = await freshUser();
      await notify(user, '2026-01-05T00:00:00.000Z', 'Quote " and \\ backslash, emoji 🌱, فارسی');
      const investmentNote = builder.investmentStatusChanged(
        { id: user.id, locale: 'fa' },
        { id: 3, title: 'T' },
        { id: 9, project_id: 3, amount: 12, notes: null },
        'refunded',
      );
      await insertNotifications(t.db, [investmentNote], '2026-01-06T00:00:00.000Z');
      const res = await t.app.inject({ method: 'GET', url: '/api/notifications', headers: user.auth });
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      const body = res.json();
      // The parsed records, newest first (the second was created a day after the first).
      expect(body).toEqual((await storedFor(t, user.id)).reverse().map(toRecord));
      expect(Value.Check(NotificationList, body), JSON.stringify([...Value.Errors(NotificationList, body)])).toBe(true);
      expect(body[1].data.project_title).toBe('Quote " and \\ backslash, emoji 🌱, فارسی');
    });

    it('returns an empty array when there is nothing unread', async () => {
      const user = await freshUser();
      const res = await t.app.inject({ method: 'GET', url: '/api/notifications', headers: user.auth });
      expect(res.json()).toEqual([]);
    });
  });

  describe('POST /api/notifications/{id}', () => {
    it('marks the notification read and answers success, message', async () => {
      const user = await freshUser();
      const id = await notify(user);
      const res = await t.app.inject({ method: 'POST', url: `/api/notifications/${id}`, headers: user.auth });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: true, message: 'Notification marked as read.' });
      const [row] = await storedFor(t, user.id);
      expect(row!.read_at).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/);
    });

    it('keeps read_at unchanged when the notification is already read', async () => {
      const user = await freshUser();
      const id = await notify(user);
      await t.app.inject({ method: 'POST', url: `/api/notifications/${id}`, headers: user.auth });
      const [first] = await storedFor(t, user.id);
      await new Promise((r) => setTimeout(r, 15));
      const again = await t.app.inject({ method: 'POST', url: `/api/notifications/${id}`, headers: user.auth });
      expect(again.statusCode).toBe(200);
      expect(again.json()).toEqual({ success: true, message: 'Notification marked as read.' });
      const [second] = await storedFor(t, user.id);
      expect(second!.read_at).toBe(first!.read_at);
    });

    it('accepts the id in upper case', async () => {
      const user = await freshUser();
      const id = await notify(user);
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/notifications/${id.toUpperCase()}`,
        headers: user.auth,
      });
      expect(res.statusCode).toBe(200);
    });

    it('answers in Persian when Accept-Language prefers fa', async () => {
      const user = await freshUser();
      const id = await notify(user);
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/notifications/${id}`,
        headers: { ...user.auth, 'accept-language': 'fa' },
      });
      expect(res.json()).toEqual({ success: true, message: 'اعلان خوانده‌شده علامت خورد.' });
    });
  });

  describe('DELETE /api/notifications/{id}', () => {
    it('removes the notification permanently, read or unread', async () => {
      const user = await freshUser();
      const unread = await notify(user);
      const read = await notify(user);
      await t.app.inject({ method: 'POST', url: `/api/notifications/${read}`, headers: user.auth });
      for (const id of [unread, read]) {
        const res = await t.app.inject({ method: 'DELETE', url: `/api/notifications/${id}`, headers: user.auth });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({ success: true, message: 'Notification deleted.' });
      }
      expect(await storedFor(t, user.id)).toEqual([]);
      const again = await t.app.inject({ method: 'DELETE', url: `/api/notifications/${unread}`, headers: user.auth });
      expect(again.statusCode).toBe(404);
      expect(again.json()).toEqual({ message: 'Notification not found.' });
    });
  });

  describe('not found', () => {
    for (const method of ['POST', 'DELETE'] as const) {
      it(`${method} answers 404 {message} for another user's notification and leaves it untouched`, async () => {
        const id = await notify(bob);
        const res = await t.app.inject({ method, url: `/api/notifications/${id}`, headers: alice.auth });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ message: 'Notification not found.' });
        const row = await t.db.selectFrom('notifications').select('read_at').where('id', '=', id).executeTakeFirst();
        expect(row).toEqual({ read_at: null });
      });

      it.each(['not-a-uuid', '12345', `${randomUUID()}x`, "'; drop table notifications; --", '%E2%9C%93'])(
        `${method} answers 404 {message} for the malformed id %s`,
        async (id) => {
          const res = await t.app.inject({ method, url: `/api/notifications/${id}`, headers: alice.auth });
          expect(res.statusCode).toBe(404);
          expect(res.json()).toEqual({ message: 'Notification not found.' });
        },
      );

      it(`${method} answers 404 {message} for a UUID that names no notification`, async () => {
        const res = await t.app.inject({ method, url: `/api/notifications/${randomUUID()}`, headers: alice.auth });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ message: 'Notification not found.' });
      });
    }

    it('translates the 404 message for fa', async () => {
      const res = await t.app.inject({
        method: 'DELETE',
        url: `/api/notifications/${randomUUID()}`,
        headers: { ...alice.auth, 'accept-language': 'fa' },
      });
      expect(res.json()).toEqual({ message: 'اعلان یافت نشد.' });
    });
  });

  describe('extensions', () => {
    it("GET /api/notifications/unread-count counts the caller's unread only (not capped), not taken for an id", async () => {
      const user = await freshUser();
      for (let i = 0; i < 3; i++) await notify(user);
      const read = await notify(user);
      await t.app.inject({ method: 'POST', url: `/api/notifications/${read}`, headers: user.auth });
      await notify(bob);
      const res = await t.app.inject({ method: 'GET', url: '/api/notifications/unread-count', headers: user.auth });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: true, count: 3 });
    });

    it("POST /api/notifications/read-all marks every unread of the caller read, and no one else's", async () => {
      const user = await freshUser();
      const other = await freshUser();
      const earlier = await notify(user);
      await t.app.inject({ method: 'POST', url: `/api/notifications/${earlier}`, headers: user.auth });
      const [before] = await storedFor(t, user.id);
      await notify(user);
      await notify(user);
      await notify(other);
      await new Promise((r) => setTimeout(r, 15));
      const res = await t.app.inject({ method: 'POST', url: '/api/notifications/read-all', headers: user.auth });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: true, message: 'All notifications marked as read.', count: 2 });
      expect(await unreadOf(t, user)).toEqual([]);
      expect(await unreadOf(t, other)).toHaveLength(1);
      const rows = await storedFor(t, user.id);
      expect(rows.every((r) => r.read_at !== null)).toBe(true);
      expect(rows.find((r) => r.id === earlier)!.read_at).toBe(before!.read_at);
      const again = await t.app.inject({ method: 'POST', url: '/api/notifications/read-all', headers: user.auth });
      expect(again.json().count).toBe(0);
    });
  });

  describe('authentication', () => {
    const routes: Array<[string, string]> = [
      ['GET', '/api/notifications'],
      ['GET', '/api/notifications/unread-count'],
      ['POST', '/api/notifications/read-all'],
      ['POST', `/api/notifications/${randomUUID()}`],
      ['DELETE', `/api/notifications/${randomUUID()}`],
    ];
    it.each(routes)('%s %s answers 401 {"message":"Unauthenticated."} without a valid token', async (method, url) => {
      for (const headers of [{}, { authorization: 'Bearer 1|nope' }]) {
        const res = await t.app.inject({ method: method as 'GET', url, headers });
        expect(res.statusCode).toBe(401);
        expect(res.json()).toEqual({ message: 'Unauthenticated.' });
      }
    });

    it('does not touch a notification on an unauthenticated request', async () => {
      const id = await notify(alice);
      await t.app.inject({ method: 'DELETE', url: `/api/notifications/${id}` });
      expect((await storedFor(t, alice.id)).map((r) => r.id)).toContain(id);
    });
  });

  it('documents the endpoints in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    for (const path of [
      '/api/notifications',
      '/api/notifications/unread-count',
      '/api/notifications/read-all',
      '/api/notifications/{id}',
      '/api/admin/projects/{id}',
      '/api/admin/projects/{id}/revision-requests',
      '/api/admin/investments/{id}',
    ]) {
      expect(doc.paths[path], path).toBeDefined();
    }
    expect(doc.paths['/api/notifications'].get.security).toEqual([{ bearerAuth: [] }]);
  });
});
