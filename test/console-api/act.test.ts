// Bulk actions and saved replies over a real socket, on the database under test: per-ticket
// results, a ticket that cannot take the change failing alone, the same request twice changing
// nothing twice, every validation rule with its body, and the saved replies' CRUD per language.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTag, type TestUser, userWithToken } from '../helpers/factories.js';
import { FORBIDDEN, fileTicket, type StaffApi, startStaffApi } from '../helpers/staff-api.js';

let api: StaffApi;
let staff: TestUser;
let member: TestUser;
let tagId: number;

const file = (subject: string) => fileTicket(api, member, subject);

beforeAll(async () => {
  api = await startStaffApi();
  staff = await userWithToken(api.database.db, { admin: true, firstName: 'Sara', lastName: 'Karimi' });
  member = await userWithToken(api.database.db, { firstName: 'Ada' });
  tagId = (await makeTag(api.database.db, 'urgent')).id;
}, 180_000);

afterAll(async () => {
  await api?.close();
});

describe('bulk', () => {
  const bulk = (body: unknown, auth: Record<string, string> | null = staff.auth) =>
    api.call(auth, 'POST', '/api/admin/tickets/bulk', body);

  it('assigns, tags, prioritises and closes many tickets; a missing one fails alone', async () => {
    const a = await file('Bulk one');
    const b = await file('Bulk two');
    const assigned = await bulk({ ids: [a, b, 999999, a], action: 'assign', value: staff.id });
    expect(assigned.json).toEqual({
      success: true,
      data: { updated: [a, b], failed: [{ id: 999999, message: 'No query results for model [Ticket] 999999' }] },
    });
    expect((await bulk({ ids: [a, b], action: 'tag', value: tagId })).json.data.updated).toEqual([a, b]);
    expect((await bulk({ ids: [a], action: 'priority', value: 'high' })).json.data.updated).toEqual([a]);
    expect((await bulk({ ids: [a, b], action: 'close' })).json.data).toEqual({ updated: [a, b], failed: [] });
    const ticket = (await api.call(staff.auth, 'GET', `/api/admin/tickets/${a}`)).json.data;
    expect(ticket).toMatchObject({
      status: 'closed',
      priority: 'high',
      tags: [{ id: tagId, name: 'urgent' }],
      assignee: { id: staff.id },
    });
    // A closed ticket keeps its priority: it fails, in the request's language too.
    const closed = await api.call({ ...staff.auth, 'accept-language': 'fa' }, 'POST', '/api/admin/tickets/bulk', {
      ids: [a],
      action: 'priority',
      value: 'low',
    });
    expect(closed.json.data).toEqual({ updated: [], failed: [{ id: a, message: 'تیکت بسته‌شده قابل ویرایش نیست.' }] });
  });

  it('applies a repeated request once: no second activity', async () => {
    const a = await file('Bulk twice');
    await bulk({ ids: [a], action: 'status', value: 'in-progress' });
    await bulk({ ids: [a], action: 'status', value: 'in-progress' });
    const { activities } = (await api.call(staff.auth, 'GET', `/api/admin/tickets/${a}`)).json.data;
    expect(activities.filter((x: { type: string }) => x.type === 'status_changed')).toHaveLength(1);
  });

  it('refuses a bad body with the tickets 422, 401 and 403', async () => {
    const a = await file('Bulk refused');
    const cases: Array<[unknown, string]> = [
      [{ ids: [], action: 'close' }, 'ids'],
      [{ ids: Array.from({ length: 101 }, (_, i) => i + 1), action: 'close' }, 'ids'],
      [{ ids: [a], action: 'delete' }, 'action'],
      [{ ids: [a], action: 'status' }, 'value'],
      [{ ids: [a], action: 'status', value: 'done' }, 'value'],
      [{ ids: [a], action: 'priority', value: null }, 'value'],
      [{ ids: [a], action: 'assign', value: member.id }, 'value'],
      [{ ids: [a], action: 'assign', value: 'abc' }, 'value'],
      [{ ids: [a], action: 'tag', value: 99999 }, 'value'],
    ];
    for (const [body, field] of cases) {
      const res = await bulk(body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.json.message).toBe('Validation error.');
      expect(Object.keys(res.json.errors), JSON.stringify(body)).toEqual([field]);
    }
    expect((await bulk({ ids: [a], action: 'close' }, null)).json).toEqual({ message: 'Unauthenticated.' });
    const forbidden = await bulk({ ids: [a], action: 'close' }, member.auth);
    expect(forbidden.status).toBe(403);
    expect(forbidden.json).toEqual(FORBIDDEN);
    expect((await api.call(member.auth, 'GET', `/api/tickets/${a}`)).json.data.status).toBe('open');
  });
});

describe('saved replies', () => {
  it('creates, lists per language, changes and deletes', async () => {
    const created = await api.call(staff.auth, 'POST', '/api/admin/saved-replies', {
      title: 'Greeting',
      body: 'Hello {{first_name}}, about {{ tracking_code }}:',
      lang: 'en',
    });
    expect(created.status).toBe(201);
    expect(created.json).toEqual({
      success: true,
      message: 'Saved reply created.',
      data: {
        id: expect.any(Number),
        title: 'Greeting',
        body: 'Hello {{first_name}}, about {{ tracking_code }}:',
        lang: 'en',
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
    });
    const id = created.json.data.id;
    await api.call(staff.auth, 'POST', '/api/admin/saved-replies', {
      title: 'سلام',
      body: '{{first_name}} گرامی،',
      lang: 'fa',
    });
    const en = await api.call(staff.auth, 'GET', '/api/admin/saved-replies?lang=en');
    expect(en.json.data.map((r: { title: string }) => r.title)).toEqual(['Greeting']);
    expect((await api.call(staff.auth, 'GET', '/api/admin/saved-replies')).json.data).toHaveLength(2);
    const changed = await api.call(staff.auth, 'PUT', `/api/admin/saved-replies/${id}`, {
      title: 'Hello',
      body: 'Hi {{agent_name}} here.',
      lang: 'en',
    });
    expect(changed.json).toMatchObject({
      success: true,
      message: 'Saved reply updated.',
      data: { id, title: 'Hello' },
    });
    const deleted = await api.call(staff.auth, 'DELETE', `/api/admin/saved-replies/${id}`);
    expect(deleted.json).toEqual({ success: true, message: 'Saved reply deleted.' });
    const again = await api.call(staff.auth, 'DELETE', `/api/admin/saved-replies/${id}`);
    expect(again.status).toBe(404);
    expect(again.json).toEqual({ success: false, message: 'Saved reply not found.' });
    expect(
      (await api.call(staff.auth, 'PUT', '/api/admin/saved-replies/abc', { title: 'x', body: 'y', lang: 'en' })).status,
    ).toBe(404);
  });

  it('refuses an unknown placeholder, a missing title, another language; 401 and 403', async () => {
    const path = '/api/admin/saved-replies';
    const unknown = await api.call(staff.auth, 'POST', path, { title: 'T', body: 'Hi {{password}}', lang: 'en' });
    expect(unknown.status).toBe(422);
    expect(unknown.json).toEqual({
      success: false,
      message: 'The given data was invalid.',
      errors: { body: ['The body uses an unknown placeholder: password.'] },
    });
    for (const body of [
      { body: 'Hi', lang: 'en' },
      { title: 'T', body: 'Hi', lang: 'de' },
      { title: '', body: 'Hi', lang: 'en' },
    ]) {
      const res = await api.call(staff.auth, 'POST', path, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
    }
    expect((await api.call(staff.auth, 'GET', `${path}?lang=de`)).status).toBe(422);
    expect((await api.call(null, 'GET', path)).status).toBe(401);
    expect((await api.call(member.auth, 'POST', path, { title: 'T', body: 'Hi', lang: 'en' })).json).toEqual(FORBIDDEN);
    expect((await api.call(member.auth, 'DELETE', `${path}/1`)).status).toBe(403);
  });
});
