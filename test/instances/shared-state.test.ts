// Two real server processes on one PostgreSQL schema, one Redis (own key prefix) and one DATA_DIR:
// whatever one of them writes or counts, the other sees.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchServer, type ServerProcess } from '../../harness/server.js';
import { userWithToken, type TestUser } from '../helpers/factories.js';
import { PNG } from '../tickets/helpers.js';
import { multipart } from '../helpers/multipart.js';
import { startSmtp, type LoopbackSmtp } from '../helpers/smtp.js';
import { runCli } from '../helpers/process.js';
import { call, redisUrl, sharedPostgres, skipReason, stopAll, type SharedDatabase } from './helpers.js';

describe.skipIf(skipReason)('two instances on one PostgreSQL and one Redis', () => {
  let shared: SharedDatabase;
  let a: ServerProcess | undefined;
  let b: ServerProcess | undefined;
  let user: TestUser;
  let other: TestUser;
  let admin: TestUser;
  let smtp: LoopbackSmtp | undefined;
  /** Every message the SMTP server received, raw. */
  let received: string[] = [];

  beforeAll(async () => {
    shared = await sharedPostgres();
    // Both instances run the outbox worker against this one mail server.
    smtp = await startSmtp();
    received = smtp.received;
    const smtpPort = smtp.port;
    const env = {
      ...shared.env,
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      REDIS_URL: redisUrl,
      REDIS_KEY_PREFIX: `test-instances-${randomBytes(6).toString('hex')}:`,
      LOG_LEVEL: 'warn',
      // Each test below calls escalate from an address of its own (X-Forwarded-For), so the
      // budget of one test does not spill into another.
      TRUST_PROXY: 'true',
    };
    // One after the other: the first loads the bundled geographic data, the second finds it there.
    a = await launchServer({ env });
    b = await launchServer({ env });
    [user, other, admin] = await Promise.all([
      userWithToken(shared.db),
      userWithToken(shared.db),
      userWithToken(shared.db, { admin: true }),
    ]);
  }, 240_000);

  afterAll(async () => {
    await stopAll([a, b]);
    if (smtp) await smtp.close();
    await shared?.destroy();
  }, 60_000);

  it('shares the escalate budget: 30 a minute in total over both, the 31st gets 429 with Retry-After', async () => {
    const escalate = (server: ServerProcess, i: number) =>
      call(`${server.url}/api/assistant/escalate`, {
        method: 'POST',
        headers: { 'x-forwarded-for': '203.0.113.10' },
        json: { reason: `Budget check ${i}` },
      });
    // 15 on each instance, at the same time.
    const first = await Promise.all(Array.from({ length: 30 }, (_, i) => escalate(i % 2 === 0 ? a! : b!, i)));
    expect(first.map((r) => r.status)).toEqual(Array(30).fill(201));
    const remaining = first.map((r) => Number(r.headers.get('x-ratelimit-remaining'))).sort((x, y) => x - y);
    // One counter: every request saw a different number of requests left, 0 to 29.
    expect(remaining).toEqual(Array.from({ length: 30 }, (_, i) => i));

    for (const server of [a!, b!]) {
      const refused = await escalate(server, 99);
      expect(refused.status).toBe(429);
      expect(Object.keys(refused.body)).toEqual(['message']);
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
    }
    // The refused calls wrote nothing: 30 tickets came from the assistant.
    const tickets = await shared.handle.db
      .selectFrom('tickets')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('source', '=', 'assistant')
      .executeTakeFirstOrThrow();
    expect(Number(tickets.n)).toBe(30);
  }, 60_000);

  it('makes one ticket for a conversation escalated many times at once over both instances', async () => {
    // Three conversations of three users, each escalated 10 times at once (5 per instance).
    await Promise.all(
      [1, 2, 3].map(async (round) => {
        const caller = await userWithToken(shared.db);
        const chat = await call(`${a!.url}/api/assistant/chat`, {
          method: 'POST',
          headers: caller.auth,
          json: { message: 'I cannot withdraw my funds.' },
        });
        expect(chat.status).toBe(200);
        const conversationId = chat.body.conversation_id as number;
        const results = await Promise.all(
          Array.from({ length: 10 }, (_, i) =>
            call(`${(i % 2 === 0 ? a! : b!).url}/api/assistant/escalate`, {
              method: 'POST',
              headers: { ...caller.auth, 'x-forwarded-for': `203.0.113.${20 + round}` },
              json: { conversation_id: conversationId, reason: 'Please call me' },
            }),
          ),
        );
        expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
        const ticketIds = new Set(results.map((r) => r.body.ticket_id));
        expect(ticketIds.size).toBe(1);
        const tickets = await shared.handle.db
          .selectFrom('tickets')
          .select('id')
          .where('message', 'like', `Escalated from assistant conversation #${conversationId}.%`)
          .execute();
        expect(tickets.map((t) => t.id)).toEqual([...ticketIds]);
        // One confirmation mail, not one per instance.
        const mails = await shared.handle.db
          .selectFrom('mail_outbox')
          .select('id')
          .where('to_address', '=', caller.email)
          .execute();
        expect(mails).toHaveLength(1);
      }),
    );
  }, 60_000);

  it('gives 100 tickets created at once over both instances 100 different tracking codes, each readable through the other', async () => {
    const owners = [user, other];
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        call(`${(i % 2 === 0 ? a! : b!).url}/api/tickets`, {
          method: 'POST',
          headers: owners[i % 4 < 2 ? 0 : 1]!.auth,
          json: { subject: `Concurrent ${i}`, message: `Created concurrently, number ${i}.`, priority: 'normal' },
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(100).fill(201));
    const codes = results.map((r) => r.body.data.tracking_code as string);
    expect(new Set(codes).size).toBe(100);
    for (const code of codes) expect(code).toMatch(/^TK-[A-Z0-9]{8}$/);
    const stored = await shared.handle.db
      .selectFrom('tickets')
      .select(['id', 'tracking_code', 'user_id'])
      .where('subject', 'like', 'Concurrent %')
      .execute();
    expect(stored.map((r) => r.tracking_code).sort()).toEqual([...codes].sort());

    // Each ticket through the instance that did not create it, by its owner; another user gets 404.
    await Promise.all(
      results.map(async (r, i) => {
        const owner = owners[i % 4 < 2 ? 0 : 1]!;
        const stranger = owners[i % 4 < 2 ? 1 : 0]!;
        const otherInstance = i % 2 === 0 ? b! : a!;
        const mine = await call(`${otherInstance.url}/api/tickets/${r.body.data.id}`, { headers: owner.auth });
        expect(mine.status).toBe(200);
        expect(mine.body.data.tracking_code).toBe(r.body.data.tracking_code);
        const theirs = await call(`${otherInstance.url}/api/tickets/${r.body.data.id}`, { headers: stranger.auth });
        expect(theirs.status).toBe(404);
      }),
    );
  }, 120_000);

  it('lists, reads and deletes through one instance the notifications created through the other', async () => {
    const projectId = 700_000 + Math.floor(Math.random() * 100_000);
    const created = await call(`${a!.url}/api/admin/projects/${projectId}`, {
      method: 'PUT',
      headers: admin.auth,
      json: { title: 'Solar farm', owner_id: user.id, status: 'approved' },
    });
    expect(created.status).toBe(201);
    const revision = await call(`${a!.url}/api/admin/projects/${projectId}/revision-requests`, {
      method: 'POST',
      headers: admin.auth,
      json: { revision_notes: 'Add the budget table.' },
    });
    expect(revision.status).toBe(201);
    const [approvedId] = created.body.notification_ids as string[];
    const [revisionId] = revision.body.notification_ids as string[];

    const listed = await call(`${b!.url}/api/notifications`, { headers: user.auth });
    expect(listed.status).toBe(200);
    expect(listed.body.map((n: { id: string }) => n.id)).toEqual([revisionId, approvedId]);
    expect(listed.body[1]).toMatchObject({
      type: 'project_status_changed',
      read_at: null,
      data: { project_id: projectId, status: 'approved' },
    });

    // Another user cannot mark it through either instance.
    expect(
      (await call(`${b!.url}/api/notifications/${approvedId}`, { method: 'POST', headers: other.auth })).status,
    ).toBe(404);

    const marked = await call(`${b!.url}/api/notifications/${approvedId}`, { method: 'POST', headers: user.auth });
    expect(marked.status).toBe(200);
    expect(marked.body.success).toBe(true);
    const row = await shared.handle.db
      .selectFrom('notifications')
      .select('read_at')
      .where('id', '=', approvedId!)
      .executeTakeFirstOrThrow();
    expect(row.read_at).not.toBeNull();

    // The first instance sees it read: no longer listed, one unread left.
    const afterRead = await call(`${a!.url}/api/notifications`, { headers: user.auth });
    expect(afterRead.body.map((n: { id: string }) => n.id)).toEqual([revisionId]);
    expect((await call(`${a!.url}/api/notifications/unread-count`, { headers: user.auth })).body).toEqual({
      success: true,
      count: 1,
    });

    const deleted = await call(`${a!.url}/api/notifications/${revisionId}`, { method: 'DELETE', headers: user.auth });
    expect(deleted.status).toBe(200);
    expect(
      (await call(`${b!.url}/api/notifications/${revisionId}`, { method: 'POST', headers: user.auth })).status,
    ).toBe(404);
    expect((await call(`${b!.url}/api/notifications`, { headers: user.auth })).body).toEqual([]);
  }, 60_000);

  it('serves through either instance the attachments the other one wrote (shared DATA_DIR)', async () => {
    const text = `receipt ${randomBytes(32).toString('hex')}\n`;
    const pdf = Buffer.concat([
      Buffer.from('%PDF-1.4\n'),
      Buffer.from(randomBytes(256).toString('base64')),
      Buffer.from('\n%%EOF\n'),
    ]);
    const form = multipart(
      [
        ['subject', 'Files across instances'],
        ['message', 'Both files must be readable everywhere.'],
      ],
      [
        { name: 'receipt.txt', content: Buffer.from(text), type: 'text/plain' },
        { name: 'contract.pdf', content: pdf, type: 'application/pdf' },
      ],
    );
    const created = await call(`${a!.url}/api/tickets`, {
      method: 'POST',
      headers: { ...user.auth, ...form.headers },
      body: form.payload,
    });
    expect(created.status).toBe(201);
    const ticketId = created.body.data.id as number;
    const attachments = created.body.data.attachments as Array<{ id: number; file_name: string }>;
    expect(attachments.map((x) => x.file_name)).toEqual(['receipt.txt', 'contract.pdf']);

    // A comment with a file written by the other instance.
    const png = PNG;
    const commentForm = multipart(
      [['message', 'One more file from the second instance.']],
      [{ name: 'screen.png', content: png, type: 'image/png' }],
    );
    const comment = await call(`${b!.url}/api/tickets/${ticketId}/comments`, {
      method: 'POST',
      headers: { ...user.auth, ...commentForm.headers },
      body: commentForm.payload,
    });
    expect(comment.status).toBe(201);
    const commentFile = comment.body.data.attachments[0] as { id: number };

    const download = async (server: ServerProcess, id: number, who: TestUser = user) => {
      const res = await fetch(`${server.url}/api/tickets/${ticketId}/attachments/${id}/download`, {
        headers: who.auth,
      });
      return {
        status: res.status,
        disposition: res.headers.get('content-disposition'),
        bytes: Buffer.from(await res.arrayBuffer()),
      };
    };
    const fromB = [await download(b!, attachments[0]!.id), await download(b!, attachments[1]!.id)];
    expect(fromB.map((d) => d.status)).toEqual([200, 200]);
    expect(fromB[0]!.bytes.toString('utf8')).toBe(text);
    expect(fromB[1]!.bytes.equals(pdf)).toBe(true);
    expect(fromB[0]!.disposition).toContain('receipt.txt');
    const fromA = await download(a!, commentFile.id);
    expect(fromA.status).toBe(200);
    expect(fromA.bytes.equals(png)).toBe(true);
    // The owner only, whichever instance answers.
    expect((await download(a!, attachments[0]!.id, other)).status).toBe(404);
  }, 60_000);

  it('serves a geographic import made by the CLI from both instances after their revision check (at most 30 s)', async () => {
    const name = `Renamed province ${randomBytes(3).toString('hex')}`;
    const file = path.join(shared.dataDir, 'province-rename.csv');
    fs.writeFileSync(file, `id,name,country_id,amar_code,active\n1,${name},74,3,1\n`);
    const before = await Promise.all([a!, b!].map((s) => call(`${s.url}/api/provinces`)));
    for (const res of before) expect(res.body.data.find((p: { id: number }) => p.id === 1).name).not.toBe(name);

    const imported = await runCli(['geo:import', '--level', 'province', '--file', file], {
      ...shared.env,
      LOG_LEVEL: 'warn',
    });
    expect(imported.code).toBe(0);
    for (const server of [a!, b!]) {
      await expect
        .poll(
          async () =>
            (await call(`${server.url}/api/provinces`)).body.data.find((p: { id: number }) => p.id === 1).name,
          { timeout: 45_000, interval: 500 },
        )
        .toBe(name);
    }
  }, 90_000);

  // Last: by now the tests above created well over 100 tickets with an owner on both instances.
  it('sends each confirmation mail exactly once although both instances run the outbox worker', async () => {
    const db = shared.handle.db;
    const deadline = Date.now() + 45_000;
    const pending = async () =>
      (await db.selectFrom('mail_outbox').select('id').where('status', '!=', 'sent').execute()).length;
    while ((await pending()) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 500));
    expect(await pending()).toBe(0);
    // A worker may still be recording a send it made; give the last one a moment.
    await new Promise((r) => setTimeout(r, 1_000));

    const owned = await db.selectFrom('tickets').select('tracking_code').where('user_id', 'is not', null).execute();
    const expected = owned.map((t) => t.tracking_code).sort();
    expect(expected.length).toBeGreaterThan(100);
    const codes = received.map((raw) => /^Subject: \[(TK-[A-Z0-9]{8})\]/m.exec(raw)?.[1] ?? 'unreadable').sort();
    expect(codes).toEqual(expected);
  }, 60_000);
});
