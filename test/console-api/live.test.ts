// The staff stream over real sockets, on the database under test, with two server processes on
// the same database: a new ticket and a member's comment written through one instance reach a
// stream opened on the other (PostgreSQL: NOTIFY at commit; SQLite: the poll); a note arrives as
// kind note; the stream token is single-use and staff-only. How soon is a speed figure for the
// benchmarks (`npm run bench -- streams`, the same signals across instances), not a bound here: on
// a loaded machine a request alone can take longer than the target.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { launchServer, type ServerProcess } from '../../harness/server.js';
import { type TestUser, userWithToken } from '../helpers/factories.js';
import { SseClient } from '../helpers/sse.js';
import { FORBIDDEN, type StaffApi, startStaffApi } from '../helpers/staff-api.js';

let api: StaffApi;
let second: ServerProcess;
let staff: TestUser;
let member: TestUser;
const opened: SseClient[] = [];
/** How long an event may take to arrive before the test fails: far beyond the target. */
const ARRIVAL_MS = 20_000;
vi.setConfig({ testTimeout: 4 * ARRIVAL_MS });

/** Both instances keep presence in one Redis, under a prefix of this run. */
const redis = {
  REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
  REDIS_KEY_PREFIX: `staff-live-${randomBytes(4).toString('hex')}:`,
};

beforeAll(async () => {
  api = await startStaffApi({ NOTIFICATION_STREAM_HEARTBEAT_SECONDS: '1', ...redis });
  second = await launchServer({ env: { ...api.database.env, ...redis } });
  staff = await userWithToken(api.database.db, { admin: true });
  member = await userWithToken(api.database.db);
}, 240_000);

afterAll(async () => {
  for (const client of opened) client.close();
  await second?.stop();
  await api?.close();
});

async function token(auth: Record<string, string>): Promise<string> {
  const res = await api.call(auth, 'POST', '/api/admin/stream-tokens', {});
  expect(res.status).toBe(201);
  expect(res.json).toEqual({ success: true, data: { token: expect.any(String), expires_at: expect.any(String) } });
  return res.json.data.token;
}

async function open(base: string, query: string, headers: Record<string, string> = {}): Promise<SseClient> {
  const client = await SseClient.open(`${base}/api/admin/stream${query}`, { headers });
  opened.push(client);
  return client;
}

describe('the staff stream', () => {
  it('sends a ticket and a comment written on another instance, and notes as notes', async () => {
    const stream = await open(api.server.url, `?stream_token=${await token(staff.auth)}`);
    expect(stream.status).toBe(200);
    expect(stream.response.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const created = await fetch(`${second.url}/api/tickets`, {
      method: 'POST',
      headers: { ...member.auth, 'content-type': 'application/json' },
      body: JSON.stringify({ subject: 'Arrived live', message: 'Written on the other instance.' }),
    });
    expect(created.status).toBe(201);
    const id = ((await created.json()) as { data: { id: number; tracking_code: string } }).data.id;
    const event = await stream.next('ticket_created', ARRIVAL_MS);
    expect(event.json).toMatchObject({ id, subject: 'Arrived live', status: 'open' });

    const comment = await fetch(`${second.url}/api/tickets/${id}/comments`, {
      method: 'POST',
      headers: { ...member.auth, 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'One more detail.' }),
    });
    const commentId = ((await comment.json()) as { data: { id: number } }).data.id;
    expect((await stream.next('comment_added', ARRIVAL_MS)).json).toEqual({
      ticket_id: id,
      comment_id: commentId,
      kind: 'member',
    });

    const note = await api.call(staff.auth, 'POST', `/api/admin/tickets/${id}/notes`, { message: 'Internal.' });
    expect((await stream.next('comment_added', ARRIVAL_MS)).json).toEqual({
      ticket_id: id,
      comment_id: note.json.data.id,
      kind: 'note',
    });
  });

  it('opens with a bearer token too, and keeps the connection alive with heartbeats', async () => {
    const stream = await open(api.server.url, '', staff.auth);
    expect(stream.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(stream.comments).toContain('heartbeat');
  });

  it('refuses a used or missing token (401) and a member (403)', async () => {
    const once = await token(staff.auth);
    (await open(api.server.url, `?stream_token=${once}`)).close();
    const reused = await open(api.server.url, `?stream_token=${once}`);
    expect(reused.status).toBe(401);
    expect((await open(api.server.url, '')).status).toBe(401);
    const forbidden = await api.call(member.auth, 'POST', '/api/admin/stream-tokens', {});
    expect(forbidden.status).toBe(403);
    expect(forbidden.json).toEqual(FORBIDDEN);
    expect((await api.call(null, 'POST', '/api/admin/stream-tokens', {})).status).toBe(401);
    expect((await open(api.server.url, '', member.auth)).status).toBe(403);
  });
});

describe('presence across instances', () => {
  it('shows a colleague marked on the other instance, kept in Redis', async () => {
    const colleague = await userWithToken(api.database.db, { admin: true, firstName: 'Omid', lastName: 'Tehrani' });
    const filed = await api.call(member.auth, 'POST', '/api/tickets', {
      subject: 'Presence',
      message: 'Who is looking at this?',
    });
    const path = `/api/admin/tickets/${filed.json.data.id}/presence`;
    expect((await api.call(staff.auth, 'PUT', path, { state: 'replying' })).status).toBe(200);
    const res = await fetch(`${second.url}${path}`, {
      method: 'PUT',
      headers: { ...colleague.auth, 'content-type': 'application/json' },
      body: JSON.stringify({ state: 'viewing' }),
    });
    const viewers = ((await res.json()) as { data: { viewers: Array<{ id: number; state: string }> } }).data.viewers;
    expect(viewers.map((v) => [v.id, v.state]).sort()).toEqual(
      [
        [staff.id, 'replying'],
        [colleague.id, 'viewing'],
      ].sort(),
    );
    const client = new Redis(redis.REDIS_URL);
    try {
      const key = `${redis.REDIS_KEY_PREFIX}presence:ticket:${filed.json.data.id}`;
      expect(Object.keys(await client.hgetall(key)).sort()).toEqual([String(staff.id), String(colleague.id)].sort());
      await client.del(key);
    } finally {
      client.disconnect();
    }
  });
});
