// GET /api/notifications/stream and its stream tokens over real sockets: the production server
// (node dist/server.js) as a child process on the database under test, a real SSE client
// (test/helpers/sse.ts), changes made through the admin API, the notification endpoints and the
// CLI (another process). Every stream's body is checked against the OpenAPI document at the end.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Contract } from '../helpers/contract.js';
import { createTestDatabase, type TestDatabase } from '../helpers/app.js';
import { userWithToken } from '../helpers/factories.js';
import { launchServer, type ServerProcess } from '../../harness/server.js';
import { runCli } from '../helpers/process.js';
import { SseClient } from '../helpers/sse.js';

const STATUSES = ['approved', 'rejected', 'under_review', 'archived'];
const PER_USER = 2;

let database: TestDatabase;
let server: ServerProcess;
let second: ServerProcess | undefined;
let contract: Contract;
let admin: Record<string, string>;
let projectId = 100;
const opened: SseClient[] = [];

interface Member {
  id: number;
  auth: Record<string, string>;
}

function member(): Promise<Member> {
  return userWithToken(database.db);
}

async function open(base: string, headers: Record<string, string> = {}, query = ''): Promise<SseClient> {
  const client = await SseClient.open(`${base}/api/notifications/stream${query}`, { headers });
  opened.push(client);
  return client;
}

/** A project status change for the owner through the admin API of `base`: one notification. */
async function notify(owner: Member, base = server.url): Promise<string> {
  projectId += 1;
  const res = await fetch(`${base}/api/admin/projects/${projectId}`, {
    method: 'PUT',
    headers: { ...admin, 'content-type': 'application/json' },
    body: JSON.stringify({
      title: `Project ${projectId}`,
      owner_id: owner.id,
      status: STATUSES[projectId % STATUSES.length],
    }),
  });
  expect(res.status).toBeLessThan(300);
  const body = (await res.json()) as { notification_ids: string[] };
  expect(body.notification_ids).toHaveLength(1);
  return body.notification_ids[0]!;
}

async function unread(user: Member): Promise<any[]> {
  const res = await fetch(`${server.url}/api/notifications`, { headers: user.auth });
  expect(res.status).toBe(200);
  return (await res.json()) as any[];
}

/** The stream's body so far must be what the document says the stream sends. */
function expectDocumented(client: SseClient): void {
  expect(contract.streamProblem('GET', '/api/notifications/stream', client)).toBeUndefined();
}

beforeAll(async () => {
  database = await createTestDatabase();
  admin = (await userWithToken(database.db, { admin: true })).auth;
  server = await launchServer({
    entry: 'built',
    env: {
      ...database.env,
      RATE_LIMIT_PER_MINUTE: '0',
      NOTIFICATION_STREAMS_PER_USER: String(PER_USER),
      NOTIFICATION_STREAM_HEARTBEAT_SECONDS: '1',
      METRICS_TOKEN: 'metrics-secret',
    },
  });
  contract = new Contract((await (await fetch(`${server.url}/openapi.json`)).json()) as never, false);
}, 120_000);

afterAll(async () => {
  for (const client of opened) client.close();
  for (const s of [server, second]) {
    if (s && s.child.exitCode === null) {
      s.child.kill('SIGTERM');
      await s.exited;
    }
  }
  await database.destroy();
});

describe('connecting', () => {
  it('answers 401 with the usual body without credentials, with a bad token, and with the bearer token in the URL', async () => {
    const user = await member();
    const token = user.auth.authorization!.slice('Bearer '.length);
    for (const [headers, query] of [
      [{}, ''],
      [{ authorization: 'Bearer 1|wrongwrongwrongwrongwrongwrongwrongwrong' }, ''],
      [{}, `?access_token=${encodeURIComponent(token)}`],
      [{}, `?token=${encodeURIComponent(token)}`],
      [{}, `?stream_token=${encodeURIComponent(token)}`],
    ] as const) {
      const res = await fetch(`${server.url}/api/notifications/stream${query}`, { headers });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ message: 'Unauthenticated.' });
    }
  });

  it('starts with a retry hint and the unread count, as text/event-stream with the request id', async () => {
    const user = await member();
    await notify(user);
    await notify(user);
    const client = await open(server.url, user.auth);
    expect(client.status).toBe(200);
    expect(client.response.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(client.response.headers['cache-control']).toBe('no-store');
    expect(client.response.headers['x-request-id']).toBeTruthy();
    expect((await client.next()).json).toEqual({ count: 2 });
    expect(client.events[0]!.event).toBe('unread_count');
    expect(client.retry).toBe(3000);
    expectDocumented(client);
  });

  it("answers HEAD with the stream's headers and ends at once", async () => {
    const res = await fetch(`${server.url}/api/notifications/stream`, {
      method: 'HEAD',
      headers: (await member()).auth,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(await res.text()).toBe('');
  });

  it('sends a heartbeat comment while nothing happens', async () => {
    const client = await open(server.url, (await member()).auth);
    await client.next('unread_count');
    await client.until(() => client.comments.includes('heartbeat'), 4_000, 'a heartbeat');
  });
});

describe('live events', () => {
  it('sends a notification written through the admin API, exactly as the list shows it, then the new count', async () => {
    const user = await member();
    const client = await open(server.url, user.auth);
    expect((await client.next('unread_count')).json).toEqual({ count: 0 });
    const id = await notify(user);
    const event = await client.next('notification');
    const [listed] = await unread(user);
    expect(listed.id).toBe(id);
    expect(event.data).toBe(JSON.stringify(listed));
    expect(event.id).toMatch(/^\d+$/);
    expect((await client.next('unread_count')).json).toEqual({ count: 1 });
    expectDocumented(client);
  });

  it('sends a notification written by the CLI in another process', async () => {
    const user = await member();
    const client = await open(server.url, user.auth);
    await client.next('unread_count');
    const cli = await runCli(
      [
        'event:project-status',
        '--project',
        '77',
        '--title',
        'From the CLI',
        '--owner-id',
        String(user.id),
        '--status',
        'approved',
      ],
      database.env,
    );
    expect(cli.code, cli.stderr).toBe(0);
    const event = await client.next('notification', 3_000);
    expect(event.json.data.project_title).toBe('From the CLI');
    expect((await client.next('unread_count')).json).toEqual({ count: 1 });
  });

  it('moves the count when a notification is read, deleted, or all are read', async () => {
    const user = await member();
    const ids = [await notify(user), await notify(user), await notify(user)];
    const client = await open(server.url, user.auth);
    expect((await client.next('unread_count')).json).toEqual({ count: 3 });
    // The signals of the three inserts may arrive after the stream opened (a busy machine): the
    // stream then says the same count again, which is right; the test waits for the count to move.
    const moved = async (from: number) => {
      for (;;) {
        const { json } = await client.next('unread_count');
        if (json.count !== from) return json;
      }
    };
    expect(
      (await fetch(`${server.url}/api/notifications/${ids[0]}`, { method: 'POST', headers: user.auth })).status,
    ).toBe(200);
    expect(await moved(3)).toEqual({ count: 2 });
    expect(
      (await fetch(`${server.url}/api/notifications/${ids[1]}`, { method: 'DELETE', headers: user.auth })).status,
    ).toBe(200);
    expect(await moved(2)).toEqual({ count: 1 });
    expect(
      (await fetch(`${server.url}/api/notifications/read-all`, { method: 'POST', headers: user.auth })).status,
    ).toBe(200);
    expect(await moved(1)).toEqual({ count: 0 });
    // Nothing was new: no notification event.
    expect(client.events.filter((e) => e.event === 'notification')).toEqual([]);
  });

  it("never sends another user's notifications", async () => {
    const user = await member();
    const other = await member();
    const client = await open(server.url, user.auth);
    await client.next('unread_count');
    await notify(other);
    const mine = await notify(user);
    expect((await client.next('notification')).json.id).toBe(mine);
    expect(client.events.filter((e) => e.event === 'notification')).toHaveLength(1);
  });
});

describe('resuming with Last-Event-ID', () => {
  it('first sends the unread notifications after the cursor, then live ones', async () => {
    const user = await member();
    const client = await open(server.url, user.auth);
    await client.next('unread_count');
    await notify(user);
    const last = await client.next('notification');
    client.close();
    const missed = [await notify(user), await notify(user)];
    const readMissed = await notify(user);
    await fetch(`${server.url}/api/notifications/${readMissed}`, { method: 'POST', headers: user.auth });
    const again = await open(server.url, { ...user.auth, 'last-event-id': last.id! });
    expect((await again.next('unread_count')).json).toEqual({ count: 3 });
    expect((await again.next('notification')).json.id).toBe(missed[0]);
    expect((await again.next('notification')).json.id).toBe(missed[1]);
    const live = await notify(user);
    expect((await again.next('notification')).json.id).toBe(live);
    expectDocumented(again);
  });

  it('takes the cursor from last_event_id in the URL too (an EventSource reconnecting with a new stream token)', async () => {
    const user = await member();
    await notify(user);
    const [first] = await unread(user);
    const cursor = await database.db
      .selectFrom('notifications')
      .select('seq')
      .where('id', '=', first.id)
      .executeTakeFirstOrThrow();
    const missed = await notify(user);
    const ticket = (await (
      await fetch(`${server.url}/api/notifications/stream-tokens`, { method: 'POST', headers: user.auth })
    ).json()) as { token: string };
    const client = await open(server.url, {}, `?stream_token=${ticket.token}&last_event_id=${cursor.seq}`);
    expect((await client.next('unread_count')).json).toEqual({ count: 2 });
    expect((await client.next('notification')).json.id).toBe(missed);
    expect(client.pending()).toEqual([]);
  });

  it('ignores an unknown or foreign cursor: no replay, no error, no leak', async () => {
    const user = await member();
    const other = await member();
    await notify(user);
    await notify(other);
    const foreign = await database.db
      .selectFrom('notifications')
      .select('seq')
      .where('user_id', '=', other.id)
      .executeTakeFirstOrThrow();
    for (const cursor of ['999999999', String(foreign.seq), '0', 'not-a-cursor', '-1']) {
      const client = await open(server.url, { ...user.auth, 'last-event-id': cursor });
      expect(client.status).toBe(200);
      expect((await client.next('unread_count')).json).toEqual({ count: 1 });
      await new Promise((r) => setTimeout(r, 300));
      expect(client.events.filter((e) => e.event === 'notification')).toEqual([]);
      client.close();
    }
  });
});

describe('stream tokens', () => {
  async function streamToken(user: Member): Promise<{ token: string; expires_at: string }> {
    const res = await fetch(`${server.url}/api/notifications/stream-tokens`, { method: 'POST', headers: user.auth });
    expect(res.status).toBe(201);
    return (await res.json()) as { token: string; expires_at: string };
  }

  it("issues a single-use ticket valid for 60 seconds that opens the issuer's stream", async () => {
    const user = await member();
    await notify(user);
    const before = Date.now();
    const { token, expires_at } = await streamToken(user);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(expires_at) - before).toBeGreaterThan(55_000);
    expect(Date.parse(expires_at) - before).toBeLessThanOrEqual(61_000);
    const client = await open(server.url, {}, `?stream_token=${token}`);
    expect(client.status).toBe(200);
    expect((await client.next('unread_count')).json).toEqual({ count: 1 });
    const stored = await database.db.selectFrom('notification_stream_tokens').selectAll().execute();
    expect(stored.map((row) => row.token_hash)).not.toContain(token);
  });

  it('refuses a ticket used twice, an expired one and a made-up one with 401', async () => {
    const user = await member();
    const { token } = await streamToken(user);
    const first = await open(server.url, {}, `?stream_token=${token}`);
    expect(first.status).toBe(200);
    const reused = await fetch(`${server.url}/api/notifications/stream?stream_token=${token}`);
    expect(reused.status).toBe(401);
    expect(await reused.json()).toEqual({ message: 'Unauthenticated.' });
    const expired = 'E'.repeat(43);
    await database.db
      .insertInto('notification_stream_tokens')
      .values({
        token_hash: createHash('sha256').update(expired).digest('hex'),
        user_id: user.id,
        expires_at: new Date(Date.now() - 1000).toISOString(),
      })
      .execute();
    expect((await fetch(`${server.url}/api/notifications/stream?stream_token=${expired}`)).status).toBe(401);
    expect((await fetch(`${server.url}/api/notifications/stream?stream_token=${'x'.repeat(43)}`)).status).toBe(401);
  });

  it("binds a ticket to its issuer: another user's ticket opens the issuer's stream, never the holder's", async () => {
    const issuer = await member();
    const holder = await member();
    await notify(holder);
    const { token } = await streamToken(issuer);
    const client = await open(server.url, {}, `?stream_token=${token}`);
    expect((await client.next('unread_count')).json).toEqual({ count: 0 });
    await notify(holder);
    const mine = await notify(issuer);
    expect((await client.next('notification')).json.id).toBe(mine);
  });

  it('answers 401 to a ticket request without a signed-in user', async () => {
    const res = await fetch(`${server.url}/api/notifications/stream-tokens`, { method: 'POST' });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ message: 'Unauthenticated.' });
  });
});

describe('limits and operations', () => {
  it(`refuses a user's stream past ${PER_USER} with 429 and Retry-After, and accepts one again after a close`, async () => {
    const user = await member();
    const streams = [await open(server.url, user.auth), await open(server.url, user.auth)];
    for (const s of streams) await s.next('unread_count');
    const refused = await fetch(`${server.url}/api/notifications/stream`, { headers: user.auth });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('30');
    expect(await refused.json()).toEqual({
      message: `Too many open notification streams: at most ${PER_USER} per user. Close one or try again later.`,
    });
    // Another user is not affected.
    expect((await open(server.url, (await member()).auth)).status).toBe(200);
    streams[0]!.close();
    let status = 0;
    for (let i = 0; i < 40 && status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 50));
      const attempt = await open(server.url, user.auth);
      status = attempt.status;
      if (status !== 200) attempt.close();
    }
    expect(status).toBe(200);
  });

  it('counts open streams in /metrics', async () => {
    const read = async () => {
      const text = await (
        await fetch(`${server.url}/metrics`, { headers: { authorization: 'Bearer metrics-secret' } })
      ).text();
      return Number(/^notification_streams_open (\d+)$/m.exec(text)?.[1]);
    };
    const before = await read();
    const client = await open(server.url, (await member()).auth);
    await client.next('unread_count');
    expect(await read()).toBe(before + 1);
    client.close();
    await new Promise((r) => setTimeout(r, 200));
    expect(await read()).toBe(before);
  });

  it('delivers a change made on another instance of the same database', async () => {
    second = await launchServer({ entry: 'built', env: { ...database.env, RATE_LIMIT_PER_MINUTE: '0' } });
    const user = await member();
    const client = await open(second.url, user.auth);
    await client.next('unread_count');
    const id = await notify(user, server.url);
    expect((await client.next('notification', 3_000)).json.id).toBe(id);
    expect((await client.next('unread_count')).json).toEqual({ count: 1 });
  }, 60_000);

  it('ends every stream cleanly on shutdown and exits 0', async () => {
    const target = second!;
    const user = await member();
    const client = await open(target.url, user.auth);
    await client.next('unread_count');
    target.child.kill('SIGTERM');
    const body = await client.finished(8_000);
    expect(body.endsWith('\n\n')).toBe(true);
    expect(await target.exited).toBe(0);
  }, 30_000);
});
