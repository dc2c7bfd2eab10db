import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import type { TestUser } from '../helpers/factories.js';
import { FORBIDDEN } from '../helpers/staff-api.js';
import { createTicketFor } from './helpers.js';

describe('staff workflow', () => {
  let t: TestApp;
  let owner: TestUser;
  let admin: TestUser;
  let otherAdmin: TestUser;
  beforeAll(async () => {
    t = await buildTestApp();
    owner = await t.makeUser({ firstName: 'Olga' });
    admin = await t.makeUser({ admin: true, firstName: 'Ada', lastName: 'Admin' });
    otherAdmin = await t.makeUser({ admin: true, firstName: 'Sam' });
  });
  afterAll(() => t.close());

  const staffPut = (id: number, payload: object, who: TestUser = admin) =>
    t.app.inject({ method: 'PUT', url: `/api/admin/tickets/${id}`, headers: who.auth, payload });
  const reply = (id: number, message: string) =>
    t.app.inject({
      method: 'POST',
      url: `/api/admin/tickets/${id}/comments`,
      headers: admin.auth,
      payload: { message },
    });
  const show = async (id: number) =>
    (await t.app.inject({ method: 'GET', url: `/api/tickets/${id}`, headers: owner.auth })).json().data;

  it('lists every ticket for admins, with the owner, and the same filters', async () => {
    const a = await createTicketFor(t, owner, { priority: 'high', subject: 'Staff list high' });
    const b = await createTicketFor(t, await t.makeUser(), { priority: 'low', subject: 'Staff list low' });
    const res = await t.app.inject({ method: 'GET', url: '/api/admin/tickets?q=staff%20list', headers: admin.auth });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.map((d: { id: number }) => d.id)).toEqual([b.id, a.id]);
    expect(res.json().data[1].user).toEqual({
      id: owner.id,
      first_name: 'Olga',
      last_name: owner.last_name,
      email: owner.email,
    });
    const high = await t.app.inject({
      method: 'GET',
      url: '/api/admin/tickets?q=staff%20list&priority=high',
      headers: admin.auth,
    });
    expect(high.json().data.map((d: { id: number }) => d.id)).toEqual([a.id]);
    expect(high.json().meta).toEqual({ current_page: 1, last_page: 1, per_page: 15, total: 1 });
  });

  it('answers 403 to non-admins and 401 without a token', async () => {
    const ticket = await createTicketFor(t, owner);
    for (const [method, url] of [
      ['GET', '/api/admin/tickets'],
      ['PUT', `/api/admin/tickets/${ticket.id}`],
      ['POST', `/api/admin/tickets/${ticket.id}/comments`],
    ] as const) {
      const forbidden = await t.app.inject({ method, url, headers: owner.auth, payload: { message: 'hello there' } });
      expect(forbidden.statusCode).toBe(403);
      expect(forbidden.json()).toEqual(FORBIDDEN);
      expect((await t.app.inject({ method, url, payload: { message: 'hello there' } })).statusCode).toBe(401);
    }
  });

  it('support staff work tickets with their own token and can be assigned them', async () => {
    const support = await t.makeUser({ firstName: 'Sue' });
    await t.db.updateTable('users').set({ role: 'support' }).where('id', '=', support.id).execute();
    const ticket = await createTicketFor(t, owner);
    const res = await staffPut(ticket.id, { assignee_id: support.id }, support);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.assignee).toMatchObject({ id: support.id, first_name: 'Sue' });
  });

  it('assigning an open ticket moves it to in-progress and shows the assignee with email', async () => {
    const ticket = await createTicketFor(t, owner);
    const res = await staffPut(ticket.id, { assignee_id: otherAdmin.id });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      status: 'in-progress',
      assignee: { id: otherAdmin.id, first_name: 'Sam', last_name: otherAdmin.last_name, email: otherAdmin.email },
    });
    const detail = await show(ticket.id);
    expect(detail.status).toBe('in-progress');
    expect(
      detail.activities
        .slice(1)
        .map((a: { type: string; old_value: string | null; new_value: string | null }) => [
          a.type,
          a.old_value,
          a.new_value,
        ]),
    ).toEqual([
      ['assigned', null, String(otherAdmin.id)],
      ['status_changed', 'open', 'in-progress'],
    ]);
    const listed = (await t.app.inject({ method: 'GET', url: '/api/tickets', headers: owner.auth }))
      .json()
      .data.find((d: { id: number }) => d.id === ticket.id);
    expect(listed.assignee).toEqual({ id: otherAdmin.id, first_name: 'Sam', last_name: otherAdmin.last_name });
  });

  it('refuses an assignee who is not an admin, or does not exist, with 422', async () => {
    const ticket = await createTicketFor(t, owner);
    for (const assignee_id of [owner.id, 999999]) {
      const res = await staffPut(ticket.id, { assignee_id });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({
        success: false,
        message: 'Validation error.',
        errors: { assignee_id: ['The selected assignee id is invalid.'] },
      });
    }
    expect((await show(ticket.id)).assignee).toBeNull();
  });

  it('validates status and answers the ticket 404 for a missing ticket', async () => {
    const ticket = await createTicketFor(t, owner);
    const bad = await staffPut(ticket.id, { status: 'resolved' });
    expect(bad.json()).toEqual({
      success: false,
      message: 'Validation error.',
      errors: { status: ['The selected status is invalid.'] },
    });
    const missing = await staffPut(987654, { status: 'closed' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: 'No query results for model [Ticket] 987654' });
  });

  it('closes with resolved_at, reopens clearing it, and unassigns with null', async () => {
    const ticket = await createTicketFor(t, owner);
    await staffPut(ticket.id, { assignee_id: admin.id });
    const closed = (await staffPut(ticket.id, { status: 'closed' })).json().data;
    expect(closed.status).toBe('closed');
    expect(closed.resolved_at).toEqual(expect.any(String));
    const reopened = (await staffPut(ticket.id, { status: 'open', assignee_id: null })).json().data;
    expect(reopened).toMatchObject({ status: 'open', resolved_at: null, assignee: null });
  });

  it('a staff reply moves the ticket to in-progress and records the first response time once', async () => {
    const ticket = await createTicketFor(t, owner);
    const res = await reply(ticket.id, 'We are looking into it.');
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({
      is_staff: true,
      user: { id: admin.id, first_name: 'Ada', last_name: 'Admin' },
    });
    const first = await show(ticket.id);
    expect(first.status).toBe('in-progress');
    expect(first.first_response_at).toEqual(expect.any(String));
    await reply(ticket.id, 'A second reply from staff.');
    expect((await show(ticket.id)).first_response_at).toBe(first.first_response_at);
  });

  it("an owner's comment keeps an in-progress ticket in progress", async () => {
    const ticket = await createTicketFor(t, owner);
    await reply(ticket.id, 'We are looking into it.');
    await t.app.inject({
      method: 'POST',
      url: `/api/tickets/${ticket.id}/comments`,
      headers: owner.auth,
      payload: { message: 'Thanks a lot!' },
    });
    expect((await show(ticket.id)).status).toBe('in-progress');
  });

  it("does not let an admin read or close another user's ticket through the user routes", async () => {
    const ticket = await createTicketFor(t, owner);
    const res = await t.app.inject({ method: 'GET', url: `/api/tickets/${ticket.id}`, headers: admin.auth });
    expect(res.statusCode).toBe(404);
    const staffView = await t.app.inject({
      method: 'GET',
      url: `/api/admin/tickets/${ticket.id}`,
      headers: admin.auth,
    });
    expect(staffView.statusCode).toBe(200);
    expect(staffView.json().data.user.email).toBe(owner.email);
  });
});
