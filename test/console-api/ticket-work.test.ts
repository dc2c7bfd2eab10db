// The staff console's queue and ticket endpoints over a real socket, on the database under test:
// views and their counts, the list's filters and orders, tags, the ticket's whole story with
// internal notes, the member's other tickets and the escalated conversation, the staff change,
// the reply's version check and presence. Internal notes never reach a member: not their ticket,
// not their (cached) list.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTag, userWithToken, ticketRow, type TestUser } from '../helpers/factories.js';
import { FORBIDDEN, fileTicket, startStaffApi, type StaffApi } from '../helpers/staff-api.js';

let api: StaffApi;
let staff: TestUser;
let other: TestUser;
let member: TestUser;
let second: TestUser;
const ids: Record<string, number> = {};
let tag: { id: number; name: string };

const file = (who: TestUser, subject: string, extra: Record<string, unknown> = {}) =>
  fileTicket(api, who, subject, extra);

beforeAll(async () => {
  api = await startStaffApi();
  const db = api.database.db;
  staff = await userWithToken(db, { admin: true, firstName: 'Sara', lastName: 'Karimi' });
  other = await userWithToken(db, { admin: true, firstName: 'Omid', lastName: 'Tehrani' });
  member = await userWithToken(db, { firstName: 'Ada', lastName: 'Lovelace' });
  second = await userWithToken(db, { firstName: 'Bob', lastName: 'Stone' });
  tag = await makeTag(db, 'payments');
  await makeTag(db, 'app');
  ids.high = await file(member, 'Cannot withdraw my dividend', { priority: 'high', tags: [tag.id] });
  ids.normal = await file(member, 'Change my phone number', { priority: 'normal', category: 'account' });
  ids.low = await file(second, 'A question about reports', { priority: 'low' });
  ids.closed = await file(second, 'Old question, answered', { priority: 'low' });
  // Overdue: its deadlines passed an hour ago (written behind the service).
  const past = new Date(Date.now() - 3_600_000).toISOString();
  const overdue = await db
    .insertInto('tickets')
    .values(
      ticketRow({
        tracking_code: 'TK-OVERDUE1',
        subject: 'Overdue one',
        sla_deadline: past,
        first_response_due_at: past,
        created_at: new Date(Date.now() - 7_200_000).toISOString(),
      }),
    )
    .returning('id')
    .executeTakeFirstOrThrow();
  ids.overdue = overdue.id;
  expect(
    (await api.call(staff.auth, 'PUT', `/api/admin/tickets/${ids.normal}`, { assignee_id: staff.id })).status,
  ).toBe(200);
  expect((await api.call(staff.auth, 'PUT', `/api/admin/tickets/${ids.closed}`, { status: 'closed' })).status).toBe(
    200,
  );
}, 180_000);

afterAll(async () => {
  await api?.close();
});

describe('who may call', () => {
  const endpoints: Array<[string, () => string, unknown?]> = [
    ['GET', () => '/api/admin/tickets'],
    ['GET', () => '/api/admin/tickets/views'],
    ['GET', () => '/api/admin/tags'],
    ['GET', () => `/api/admin/tickets/${ids.high}`],
    ['PUT', () => `/api/admin/tickets/${ids.high}`, { priority: 'low' }],
    ['POST', () => `/api/admin/tickets/${ids.high}/notes`, { message: 'A note' }],
    ['PUT', () => `/api/admin/tickets/${ids.high}/presence`, { state: 'viewing' }],
  ];
  it('answers 401 without a token and 403 to a member, with the exact bodies', async () => {
    for (const [method, path, body] of endpoints) {
      const anonymous = await api.call(null, method, path(), body);
      expect(anonymous.status, `${method} ${path()}`).toBe(401);
      expect(anonymous.json).toEqual({ message: 'Unauthenticated.' });
      const asMember = await api.call(member.auth, method, path(), body);
      expect(asMember.status, `${method} ${path()}`).toBe(403);
      expect(asMember.json).toEqual(FORBIDDEN);
    }
  });
});

describe('the queue', () => {
  it('counts each view', async () => {
    const res = await api.call(staff.auth, 'GET', '/api/admin/tickets/views');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      success: true,
      data: [
        { view: 'mine', count: 1 },
        { view: 'unassigned', count: 3 },
        { view: 'open', count: 4 },
        { view: 'at_risk', count: 1 },
        { view: 'closed', count: 1 },
      ],
    });
    // "Mine" is the caller's.
    const others = await api.call(other.auth, 'GET', '/api/admin/tickets/views');
    expect(others.json.data[0]).toEqual({ view: 'mine', count: 0 });
  });

  const listed = async (query: string) => {
    const res = await api.call(staff.auth, 'GET', `/api/admin/tickets?${query}`);
    expect(res.status, res.text).toBe(200);
    return res.json.data.map((r: { id: number }) => r.id) as number[];
  };

  it('lists a view, ordered by the next SLA deadline', async () => {
    // Next deadlines: overdue (past), high (1 h first response), normal (answered? no: 4 h), low (12 h).
    expect(await listed('view=open&sort=sla')).toEqual([ids.overdue, ids.high, ids.normal, ids.low]);
    expect(await listed('view=mine&sort=sla')).toEqual([ids.normal]);
    expect(await listed('view=unassigned&sort=sla')).toEqual([ids.overdue, ids.high, ids.low]);
    expect(await listed('view=at_risk&sort=sla')).toEqual([ids.overdue]);
    expect(await listed('view=closed&sort=sla')).toEqual([ids.closed]);
  });

  it('filters by status, priority, category, tag, assignee and text', async () => {
    expect(await listed('status=closed')).toEqual([ids.closed]);
    expect(await listed('priority=high')).toEqual([ids.high]);
    expect(await listed('category=account')).toEqual([ids.normal]);
    expect(await listed(`tag=${tag.id}`)).toEqual([ids.high]);
    expect(await listed(`assignee_id=${staff.id}`)).toEqual([ids.normal]);
    expect(await listed('q=DIVIDEND')).toEqual([ids.high]);
    expect(await listed('q=100%25')).toEqual([]);
    expect(await listed('view=open&priority=low&sort=sla')).toEqual([ids.overdue, ids.low]);
  });

  it('answers a row with owner, assignee, tags, SLA status and next deadline, and the page meta', async () => {
    const res = await api.call(staff.auth, 'GET', `/api/admin/tickets?tag=${tag.id}`);
    const [row] = res.json.data;
    expect(row).toMatchObject({
      id: ids.high,
      subject: 'Cannot withdraw my dividend',
      priority: 'high',
      tags: [tag],
      assignee: null,
      user: { id: member.id, email: member.email, first_name: 'Ada', last_name: 'Lovelace' },
      sla_status: 'on_time',
      // The deprecated alias, kept one release for old clients.
      sla: { status: 'on_track' },
    });
    expect(Date.parse(row.sla.next_due_at) - Date.parse(row.created_at)).toBe(3_600_000);
    expect(res.json.meta).toEqual({ current_page: 1, last_page: 1, per_page: 15, total: 1 });
  });

  it('refuses an unknown view, sort or a bad tag with the tickets 422', async () => {
    for (const query of ['view=everything', 'sort=random', 'tag=abc', 'per_page=101']) {
      const res = await api.call(staff.auth, 'GET', `/api/admin/tickets?${query}`);
      expect(res.status, query).toBe(422);
      expect(res.json.message).toBe('Validation error.');
    }
  });

  it('lists every tag by name', async () => {
    const res = await api.call(staff.auth, 'GET', '/api/admin/tags');
    expect(res.json).toEqual({ success: true, data: [{ id: expect.any(Number), name: 'app' }, tag] });
  });
});

describe('the ticket', () => {
  it('tells the whole story in order with internal notes, the member and their other tickets', async () => {
    const id = ids.high;
    expect(
      (await api.call(member.auth, 'POST', `/api/tickets/${id}/comments`, { message: 'Any news on this?' })).status,
    ).toBe(201);
    const note = await api.call(staff.auth, 'POST', `/api/admin/tickets/${id}/notes`, {
      message: 'Checked the gateway logs.',
    });
    expect(note.status).toBe(201);
    expect(note.json).toEqual({
      success: true,
      message: 'Note added.',
      data: {
        id: expect.any(Number),
        ticket_id: id,
        user: { id: staff.id, first_name: 'Sara', last_name: 'Karimi' },
        message: 'Checked the gateway logs.',
        created_at: expect.any(String),
      },
    });
    const res = await api.call(staff.auth, 'GET', `/api/admin/tickets/${id}`);
    expect(res.status).toBe(200);
    const { timeline, member: owner, conversation, version } = res.json.data;
    expect(timeline.map((e: { kind: string; body: string }) => [e.kind, e.body])).toEqual([
      ['message', 'Cannot withdraw my dividend: written by the member for the test.'],
      ['message', 'Any news on this?'],
      ['note', 'Checked the gateway logs.'],
    ]);
    expect(timeline[2].author).toEqual({ id: staff.id, first_name: 'Sara', last_name: 'Karimi', role: 'staff' });
    expect(owner.email).toBe(member.email);
    expect(owner.other_tickets.map((t: { id: number }) => t.id)).toEqual([ids.normal]);
    expect(conversation).toBeNull();
    expect(version).toMatch(/^\d+$/);
  });

  it('never shows a note to the member: not in their ticket, not in their cached list', async () => {
    const id = ids.normal;
    const before = await api.call(member.auth, 'GET', '/api/tickets');
    const detailBefore = await api.call(member.auth, 'GET', `/api/tickets/${id}`);
    const note = await api.call(staff.auth, 'POST', `/api/admin/tickets/${id}/notes`, {
      message: 'SECRET-NOTE staff only',
    });
    expect(note.status).toBe(201);
    const after = await api.call(member.auth, 'GET', '/api/tickets');
    const detailAfter = await api.call(member.auth, 'GET', `/api/tickets/${id}`);
    expect(after.text).toBe(before.text);
    expect(after.headers.get('etag')).toBe(before.headers.get('etag'));
    expect(detailAfter.text).toBe(detailBefore.text);
    expect(detailAfter.text).not.toContain('SECRET-NOTE');
    const staffView = await api.call(staff.auth, 'GET', `/api/admin/tickets/${id}`);
    expect(staffView.text).toContain('SECRET-NOTE');
  });

  it('shows the escalated assistant conversation', async () => {
    const db = api.database.db;
    const now = new Date().toISOString();
    const conversation = await db
      .insertInto('assistant_conversations')
      .values({
        user_id: member.id,
        title: 'Dividend',
        agent_type: 'guide',
        last_message: null,
        escalated_ticket_id: ids.low,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('assistant_messages')
      .values([
        {
          conversation_id: conversation.id,
          role: 'user',
          content: 'Where is my dividend?',
          agent: null,
          request_id: null,
          response_time_ms: null,
          sources: null,
          created_at: now,
        },
        {
          conversation_id: conversation.id,
          role: 'assistant',
          content: 'Let me connect you with support.',
          agent: 'guide',
          request_id: null,
          response_time_ms: 5,
          sources: null,
          created_at: now,
        },
      ])
      .execute();
    const res = await api.call(staff.auth, 'GET', `/api/admin/tickets/${ids.low}`);
    expect(res.json.data.conversation).toEqual({
      id: conversation.id,
      title: 'Dividend',
      messages: [
        { role: 'user', content: 'Where is my dividend?', created_at: now },
        { role: 'assistant', content: 'Let me connect you with support.', created_at: now },
      ],
    });
  });

  it('refuses a note without text and on a ticket that does not exist', async () => {
    const empty = await api.call(staff.auth, 'POST', `/api/admin/tickets/${ids.high}/notes`, { message: '' });
    expect(empty.status).toBe(422);
    expect(empty.json).toEqual({
      success: false,
      message: 'Validation error.',
      errors: { message: [expect.any(String)] },
    });
    const missing = await api.call(staff.auth, 'POST', '/api/admin/tickets/999999/notes', { message: 'A note' });
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual({ message: 'No query results for model [Ticket] 999999' });
  });

  it('answers 409 to a reply written against an older version, and sends it against the current one', async () => {
    const id = ids.high;
    const { version } = (await api.call(staff.auth, 'GET', `/api/admin/tickets/${id}`)).json.data;
    expect(
      (await api.call(member.auth, 'POST', `/api/tickets/${id}/comments`, { message: 'One more thing.' })).status,
    ).toBe(201);
    const stale = await api.call(staff.auth, 'POST', `/api/admin/tickets/${id}/comments`, {
      message: 'We are on it.',
      if_version: version,
    });
    expect(stale.status).toBe(409);
    const current = (await api.call(staff.auth, 'GET', `/api/admin/tickets/${id}`)).json.data.version;
    expect(stale.json).toEqual({
      success: false,
      message: 'A new message arrived since you loaded this ticket. Read it, then send again.',
      version: current,
    });
    const sent = await api.call(staff.auth, 'POST', `/api/admin/tickets/${id}/comments`, {
      message: 'We are on it.',
      if_version: current,
    });
    expect(sent.status).toBe(201);
    // A note does not change the version.
    await api.call(staff.auth, 'POST', `/api/admin/tickets/${id}/notes`, { message: 'Replied.' });
    const after = (await api.call(staff.auth, 'GET', `/api/admin/tickets/${id}`)).json.data.version;
    expect(after).not.toBe(current);
    await api.call(staff.auth, 'POST', `/api/admin/tickets/${id}/notes`, { message: 'Another note.' });
    expect((await api.call(staff.auth, 'GET', `/api/admin/tickets/${id}`)).json.data.version).toBe(after);
  });

  it('changes priority, category, tags and assignee together; refuses a member as assignee and an unknown tag', async () => {
    const id = ids.low;
    const res = await api.call(staff.auth, 'PUT', `/api/admin/tickets/${id}`, {
      priority: 'high',
      category: 'payments',
      tags: [tag.id],
      assignee_id: other.id,
    });
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({
      priority: 'high',
      category: 'payments',
      tags: [tag],
      status: 'in-progress',
      assignee: { id: other.id },
    });
    const trail = res.json.data.timeline
      .filter((e: { kind: string }) => e.kind === 'activity')
      .map((e: { field: string }) => e.field);
    expect(trail).toEqual(expect.arrayContaining(['assignee_id', 'status', 'priority', 'category', 'tags']));
    const bad = await api.call(staff.auth, 'PUT', `/api/admin/tickets/${id}`, {
      assignee_id: member.id,
      tags: [tag.id, 99999],
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.json.errors).sort()).toEqual(['assignee_id', 'tags.1']);
    const closed = await api.call(staff.auth, 'PUT', `/api/admin/tickets/${ids.closed}`, { priority: 'high' });
    expect(closed.status).toBe(400);
    expect(closed.json).toEqual({ success: false, message: 'Closed tickets cannot be updated.' });
    const unassign = await api.call(staff.auth, 'PUT', `/api/admin/tickets/${id}`, { assignee_id: null });
    expect(unassign.json.data.assignee).toBeNull();
  });

  it('shows who else is viewing or replying, and forgets who left', async () => {
    const path = `/api/admin/tickets/${ids.high}/presence`;
    const first = await api.call(staff.auth, 'PUT', path, { state: 'viewing' });
    expect(first.json).toEqual({
      success: true,
      data: { viewers: [{ id: staff.id, first_name: 'Sara', last_name: 'Karimi', state: 'viewing' }] },
    });
    const both = await api.call(other.auth, 'PUT', path, { state: 'replying' });
    expect(both.json.data.viewers).toEqual(
      [
        { id: staff.id, first_name: 'Sara', last_name: 'Karimi', state: 'viewing' },
        { id: other.id, first_name: 'Omid', last_name: 'Tehrani', state: 'replying' },
      ].sort((a, b) => a.id - b.id),
    );
    const left = await api.call(staff.auth, 'PUT', path, { state: 'left' });
    expect(left.json.data.viewers).toEqual([
      { id: other.id, first_name: 'Omid', last_name: 'Tehrani', state: 'replying' },
    ]);
    const bad = await api.call(staff.auth, 'PUT', path, { state: 'typing' });
    expect(bad.status).toBe(422);
  });
});

describe('the queue without a view', () => {
  it('orders open tickets by their next deadline, then closed ones', async () => {
    const res = await api.call(staff.auth, 'GET', '/api/admin/tickets?sort=sla&per_page=100');
    const rows = res.json.data as Array<{ id: number; status: string }>;
    const firstClosed = rows.findIndex((r) => r.status === 'closed');
    expect(firstClosed).toBeGreaterThan(0);
    expect(rows.slice(firstClosed).every((r) => r.status === 'closed')).toBe(true);
    expect(rows[0]!.id).toBe(ids.overdue);
    expect(res.json.meta.total).toBe(5);
  });
});
