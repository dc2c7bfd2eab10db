import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import type { TestUser } from '../helpers/factories.js';
import { createTicketFor } from './helpers.js';

const HOUR = 3_600_000;

describe('ticket lifecycle', () => {
  let t: TestApp;
  let user: TestUser;
  beforeAll(async () => {
    t = await buildTestApp();
    user = await t.makeUser({ firstName: 'Lena', lastName: 'Owner' });
  });
  afterAll(() => t.close());

  const put = (id: number, payload?: object) =>
    t.app.inject({ method: 'PUT', url: `/api/tickets/${id}`, headers: user.auth, ...(payload ? { payload } : {}) });
  const close = (id: number) => t.app.inject({ method: 'PUT', url: `/api/tickets/${id}/close`, headers: user.auth });
  const comment = (id: number, payload: object) =>
    t.app.inject({ method: 'POST', url: `/api/tickets/${id}/comments`, headers: user.auth, payload });
  const show = async (id: number) =>
    (await t.app.inject({ method: 'GET', url: `/api/tickets/${id}`, headers: user.auth })).json().data;

  describe('PUT /api/tickets/{id}', () => {
    it('changes the priority, recalculates sla_deadline from created_at and answers the reduced data', async () => {
      const ticket = await createTicketFor(t, user, { priority: 'normal' });
      const res = await put(ticket.id, { priority: 'high' });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body).toEqual({
        success: true,
        message: 'Ticket updated successfully.',
        data: {
          id: ticket.id,
          tracking_code: ticket.tracking_code,
          priority: 'high',
          sla_deadline: expect.any(String),
          status: 'open',
        },
      });
      expect(Date.parse(body.data.sla_deadline) - Date.parse(ticket.created_at as string)).toBe(4 * HOUR);
      const detail = await show(ticket.id);
      expect(Date.parse(detail.first_response_due_at) - Date.parse(detail.created_at)).toBe(1 * HOUR);
      await put(ticket.id, { priority: 'low' });
      expect(Date.parse((await show(ticket.id)).sla_deadline) - Date.parse(ticket.created_at as string)).toBe(
        72 * HOUR,
      );
    });

    it('sets and clears the category (null clears) and records each change as an activity', async () => {
      const ticket = await createTicketFor(t, user, { priority: 'normal' });
      await put(ticket.id, { category: 'billing' });
      expect((await show(ticket.id)).category).toBe('billing');
      await put(ticket.id, { category: null, priority: 'high' });
      const detail = await show(ticket.id);
      expect(detail.category).toBeNull();
      const changes = detail.activities.map(
        (a: { type: string; field: string | null; old_value: string | null; new_value: string | null }) => [
          a.type,
          a.field,
          a.old_value,
          a.new_value,
        ],
      );
      expect(changes).toEqual([
        ['created', null, null, 'open'],
        ['field_updated', 'category', null, 'billing'],
        ['field_updated', 'priority', 'normal', 'high'],
        ['field_updated', 'category', 'billing', null],
      ]);
      expect(detail.activities[1].user).toEqual({ id: user.id, first_name: 'Lena', last_name: 'Owner' });
    });

    it('answers 200 and changes nothing for an empty body', async () => {
      const ticket = await createTicketFor(t, user, { priority: 'low' });
      const res = await put(ticket.id);
      expect(res.statusCode).toBe(200);
      expect(res.json().data.priority).toBe('low');
      expect((await show(ticket.id)).activities).toHaveLength(1);
    });

    it.each([
      [{ priority: 'urgent' }, { priority: ['The selected priority is invalid.'] }],
      [{ category: 42 }, { category: ['The category must be a string.'] }],
      [{ category: 'x'.repeat(256) }, { category: ['The category must not be greater than 255 characters.'] }],
    ])('answers 422 for %j', async (payload, errors) => {
      const ticket = await createTicketFor(t, user);
      const res = await put(ticket.id, payload);
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({ success: false, message: 'Validation error.', errors });
    });

    it('answers 400 on a closed ticket and changes nothing', async () => {
      const ticket = await createTicketFor(t, user, { priority: 'normal', category: 'a' });
      await close(ticket.id);
      const res = await put(ticket.id, { priority: 'high', category: 'b' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ success: false, message: 'Closed tickets cannot be updated.' });
      const detail = await show(ticket.id);
      expect(detail).toMatchObject({ priority: 'normal', category: 'a', status: 'closed' });
    });
  });

  describe('PUT /api/tickets/{id}/close', () => {
    it('closes, records resolved_at and answers {id, status, resolved_at}', async () => {
      const ticket = await createTicketFor(t, user);
      expect((await show(ticket.id)).resolved_at).toBeNull();
      const res = await close(ticket.id);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        success: true,
        message: 'Ticket closed successfully.',
        data: { id: ticket.id, status: 'closed', resolved_at: expect.any(String) },
      });
      const detail = await show(ticket.id);
      expect(detail.resolved_at).toBe(res.json().data.resolved_at);
      expect(detail.sla_status).toBe('met');
      expect(detail.activities.at(-1)).toMatchObject({
        type: 'status_changed',
        field: 'status',
        old_value: 'open',
        new_value: 'closed',
      });
    });

    it('answers 400 when the ticket is already closed', async () => {
      const ticket = await createTicketFor(t, user);
      await close(ticket.id);
      const res = await close(ticket.id);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ success: false, message: 'Ticket is already closed.' });
    });
  });

  describe('POST /api/tickets/{id}/comments', () => {
    it('adds a comment and answers 201 with it', async () => {
      const ticket = await createTicketFor(t, user);
      const res = await comment(ticket.id, { message: 'Any news on this?' });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toEqual({
        success: true,
        message: 'Comment added successfully.',
        data: {
          id: expect.any(Number),
          ticket_id: ticket.id,
          user: { id: user.id, first_name: 'Lena', last_name: 'Owner' },
          message: 'Any news on this?',
          is_staff: false,
          attachments: [],
          created_at: expect.any(String),
        },
      });
      const detail = await show(ticket.id);
      expect(detail.comments).toHaveLength(1);
      expect(detail.status).toBe('open');
      expect(detail.activities.at(-1)).toMatchObject({ type: 'comment_added' });
    });

    it('reopens a closed ticket to open and clears resolved_at', async () => {
      const ticket = await createTicketFor(t, user);
      await close(ticket.id);
      const res = await comment(ticket.id, { message: 'Still broken, sorry.' });
      expect(res.statusCode).toBe(201);
      const detail = await show(ticket.id);
      expect(detail.status).toBe('open');
      expect(detail.resolved_at).toBeNull();
      expect(detail.activities.at(-1)).toMatchObject({
        type: 'status_changed',
        old_value: 'closed',
        new_value: 'open',
      });
    });

    it.each([
      [{ message: 'four' }, { message: ['The message must be at least 5 characters.'] }],
      [{}, { message: ['The message field is required.'] }],
      [{ message: 12345 }, { message: ['The message must be a string.'] }],
    ])('answers 422 for %j', async (payload, errors) => {
      const ticket = await createTicketFor(t, user);
      const res = await comment(ticket.id, payload);
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({ success: false, message: 'Validation error.', errors });
    });

    it('lists comments chronologically in the detail', async () => {
      const ticket = await createTicketFor(t, user);
      await comment(ticket.id, { message: 'first comment' });
      await comment(ticket.id, { message: 'second comment' });
      expect((await show(ticket.id)).comments.map((c: { message: string }) => c.message)).toEqual([
        'first comment',
        'second comment',
      ]);
    });
  });

  describe('sla_status', () => {
    it('is overdue past the deadline, warning in the last quarter, missed when closed late', async () => {
      const ticket = await createTicketFor(t, user, { priority: 'high' });
      const now = Date.now();
      const set = (created: number, deadline: number) =>
        t.db
          .updateTable('tickets')
          .set({ created_at: new Date(created).toISOString(), sla_deadline: new Date(deadline).toISOString() })
          .where('id', '=', ticket.id)
          .execute();
      await set(now - 5 * HOUR, now - HOUR);
      expect((await show(ticket.id)).sla_status).toBe('overdue');
      await set(now - 3.5 * HOUR, now + 0.5 * HOUR);
      expect((await show(ticket.id)).sla_status).toBe('warning');
      await set(now - 5 * HOUR, now - HOUR);
      await close(ticket.id);
      expect((await show(ticket.id)).sla_status).toBe('missed');
    });
  });
});
