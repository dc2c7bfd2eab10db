// Dependencies going down under the real server process. PostgreSQL: a private cluster started by
// this test is stopped while the server serves: /health says 503, requests get 503 {message}
// promptly, the process stays up, and it recovers by itself when the database is back. SMTP: tickets
// are still created while the mail server is down; the running server's worker sends the mail once
// it is back.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configWith } from '../../src/config.js';
import { createDatabase, type DatabaseHandle } from '../../src/db/index.js';
import { freePort } from '../../harness/ports.js';
import { launchServer, type ServerProcess } from '../../harness/server.js';
import { waitFor } from '../../harness/wait.js';
import { createTestDatabase, testDialect, type TestDatabase } from '../helpers/app.js';
import { userWithToken } from '../helpers/factories.js';
import { startSmtp, type LoopbackSmtp } from '../helpers/smtp.js';
import { PrivatePostgres } from './pg-private.js';
import { CommitCutter } from './pg-proxy.js';

const UNAVAILABLE = { message: 'Service temporarily unavailable. Please try again shortly.' };
// A refused connection fails at once; the bound only tells "answered" from "hung" on a busy machine.
const PROMPT_MS = 8_000;

async function timed(url: string, init?: RequestInit) {
  const started = Date.now();
  const res = await fetch(url, init);
  const text = await res.text();
  return {
    status: res.status,
    body: JSON.parse(text) as unknown,
    retryAfter: res.headers.get('retry-after'),
    ms: Date.now() - started,
  };
}

// Only in the PostgreSQL run: the fault is PostgreSQL's (the test still uses its own cluster).
describe.runIf(testDialect === 'postgres')('PostgreSQL stopped while serving', () => {
  let pg: PrivatePostgres;
  let server: ServerProcess | undefined;
  let handle: DatabaseHandle | undefined;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pg-down-'));

  beforeAll(async () => {
    pg = new PrivatePostgres(await freePort());
    pg.init();
    pg.start();
  }, 120_000);
  afterAll(async () => {
    await server?.kill();
    await handle?.close().catch(() => undefined);
    pg?.destroy();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers 503 while the database is down, stays up, and recovers by itself when it is back', async () => {
    server = await launchServer({ env: { DATABASE_URL: pg.url, DATA_DIR: dataDir }, timeoutMs: 120_000 });
    handle = createDatabase(configWith({ DATABASE_URL: pg.url, DATABASE_POOL_SIZE: 2 }));
    const owner = await userWithToken(handle.db);
    const json = { ...owner.auth, 'content-type': 'application/json' };
    const create = (subject: string) =>
      timed(`${server!.url}/api/tickets`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ subject, message: 'Written around a database outage.' }),
      });

    const before = await create('Before the outage');
    expect(before.status).toBe(201);
    expect((await timed(`${server.url}/api/tickets`, { headers: owner.auth })).status).toBe(200);

    pg.stop();

    const health = await timed(`${server.url}/health`);
    expect(health.status).toBe(503);
    expect(health.body).toEqual({ status: 'unavailable' });
    for (const attempt of [
      () => timed(`${server!.url}/api/tickets`, { headers: owner.auth }),
      () => create('During the outage'),
      () => timed(`${server!.url}/api/tickets/stats`, { headers: owner.auth }),
      () => timed(`${server!.url}/api/notifications`, { headers: owner.auth }),
      () =>
        timed(`${server!.url}/api/assistant/chat`, {
          method: 'POST',
          headers: json,
          body: JSON.stringify({ message: 'Is anyone there?' }),
        }),
    ]) {
      // Twice: the first attempt meets the pool's dropped connections, the second a refused new one.
      for (let i = 0; i < 2; i++) {
        const res = await attempt();
        expect(res.status).toBe(503);
        expect(res.body).toEqual(UNAVAILABLE);
        expect(res.retryAfter).toBe('5');
        expect(res.ms).toBeLessThan(PROMPT_MS);
      }
    }
    expect(server.child.exitCode).toBeNull();

    pg.start();
    // No restart: the same process answers again once PostgreSQL accepts connections.
    await waitFor('the service to recover', async () => (await fetch(`${server!.url}/health`)).status === 200, 30_000);
    const after = await create('After the outage');
    expect(after.status).toBe(201);
    const list = await timed(`${server.url}/api/tickets`, { headers: owner.auth });
    expect(list.status).toBe(200);
    expect((list.body as { data: Array<{ subject: string }> }).data.map((t) => t.subject).sort()).toEqual([
      'After the outage',
      'Before the outage',
    ]);
    expect(server.child.exitCode).toBeNull();
    expect(server.output()).not.toMatch(/unhandled|uncaught/i);
  }, 180_000);

  it('answers 503 within the query timeout when the database freezes, and recovers when it thaws', async () => {
    const owner = await userWithToken(handle!.db);
    expect((await fetch(`${server!.url}/api/tickets`, { headers: owner.auth })).status).toBe(200);
    const pids = pg.pids();
    for (const pid of pids) process.kill(pid, 'SIGSTOP');
    try {
      const [list, health] = await Promise.all([
        timed(`${server!.url}/api/tickets`, { headers: owner.auth }),
        timed(`${server!.url}/health`),
      ]);
      expect(list.status).toBe(503);
      expect(list.body).toEqual(UNAVAILABLE);
      expect(health.status).toBe(503);
      // Bounded by the pool's timeouts (5 s to connect, 15 s per query), whichever applies.
      expect(Math.max(list.ms, health.ms)).toBeLessThan(15_000 + PROMPT_MS);
    } finally {
      for (const pid of pids) process.kill(pid, 'SIGCONT');
    }
    await waitFor('the service to recover', async () => (await fetch(`${server!.url}/health`)).status === 200, 30_000);
    expect((await fetch(`${server!.url}/api/tickets`, { headers: owner.auth })).status).toBe(200);
    expect(server!.child.exitCode).toBeNull();
  }, 120_000);
});

describe.runIf(testDialect === 'postgres')('PostgreSQL connection lost in the middle of a transaction', () => {
  let t: TestDatabase;
  let cutter: CommitCutter;
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(async () => {
    await server?.kill();
    await cutter?.stop();
    await t.destroy();
  });

  it('answers 503 and keeps serving (the lost connection used to crash the process)', async () => {
    const target = new URL(t.config.DATABASE_URL!);
    cutter = new CommitCutter(target.hostname, Number(target.port || 5432));
    const proxied = new URL(t.config.DATABASE_URL!);
    proxied.port = String(await cutter.start());
    server = await launchServer({ env: { ...t.env, DATABASE_URL: proxied.toString() } });
    const owner = await userWithToken(t.db);
    const create = (subject: string) =>
      timed(`${server!.url}/api/tickets`, {
        method: 'POST',
        headers: { ...owner.auth, 'content-type': 'application/json' },
        body: JSON.stringify({ subject, message: 'Its commit answer is lost on the way back.' }),
      });

    cutter.armed = true;
    const lost = await create('Commit answer lost');
    expect(cutter.cuts).toBe(1);
    expect(lost.status).toBe(503);
    expect(lost.body).toEqual(UNAVAILABLE);

    await new Promise((r) => setTimeout(r, 500));
    expect(server.child.exitCode).toBeNull();
    expect((await create('Next one')).status).toBe(201);
    // The first one had in fact been committed: a retry-safe client would look before sending again.
    const list = await timed(`${server.url}/api/tickets`, { headers: owner.auth });
    expect((list.body as { data: Array<{ subject: string }> }).data.map((x) => x.subject).sort()).toEqual([
      'Commit answer lost',
      'Next one',
    ]);
  }, 120_000);
});

describe.runIf(testDialect === 'sqlite')('SQLite file locked by another process', () => {
  let t: TestDatabase;
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(async () => {
    await server?.kill();
    await t.destroy();
  });

  it('answers 503 {message} while the lock is held (no hang, no crash), and writes again once it is released', async () => {
    server = await launchServer({ env: t.env });
    const owner = await userWithToken(t.db);
    const create = (subject: string) =>
      timed(`${server!.url}/api/tickets`, {
        method: 'POST',
        headers: { ...owner.auth, 'content-type': 'application/json' },
        body: JSON.stringify({ subject, message: 'Written while another process holds the lock.' }),
      });
    expect((await create('Before the lock')).status).toBe(201);

    // Another process (an operator command, say) holds the write lock longer than busy_timeout (5 s).
    const other = new SQLite(t.handle.sqliteFile!);
    other.pragma('busy_timeout = 5000');
    other.exec('BEGIN IMMEDIATE');
    try {
      const locked = await create('During the lock');
      expect(locked.status).toBe(503);
      expect(locked.body).toEqual(UNAVAILABLE);
      expect(server.child.exitCode).toBeNull();
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    expect((await create('After the lock')).status).toBe(201);
    const subjects = await t.db.selectFrom('tickets').select('subject').orderBy('id').execute();
    expect(subjects.map((r) => r.subject)).toEqual(['Before the lock', 'After the lock']);
  }, 60_000);
});

describe('SMTP down while serving', () => {
  let t: TestDatabase;
  let server: ServerProcess | undefined;
  let smtp: LoopbackSmtp | undefined;

  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(async () => {
    await server?.kill();
    if (smtp) await smtp.close();
    await t.destroy();
  });

  it('still creates tickets, and the running server sends the confirmation once the mail server is back', async () => {
    const smtpPort = await freePort();
    server = await launchServer({ env: { ...t.env, SMTP_URL: `smtp://127.0.0.1:${smtpPort}` } });
    const owner = await userWithToken(t.db);
    const res = await fetch(`${server.url}/api/tickets`, {
      method: 'POST',
      headers: { ...owner.auth, 'content-type': 'application/json' },
      body: JSON.stringify({ subject: 'Mail server is down', message: 'The ticket must be created anyway.' }),
    });
    expect(res.status).toBe(201);
    const ticket = ((await res.json()) as { data: { tracking_code: string } }).data;

    // The worker tried, failed and scheduled a retry; the mail is kept.
    const failed = await waitFor('a failed attempt', async () => {
      const row = await t.db.selectFrom('mail_outbox').selectAll().executeTakeFirst();
      return row && row.attempts >= 1 ? row : undefined;
    });
    expect(failed).toMatchObject({ status: 'pending', sent_at: null });
    expect(failed.last_error).toBeTruthy();

    smtp = await startSmtp(smtpPort);
    const received = smtp.received;
    // The retry is due 30 s later; move it to now instead of waiting (the backoff itself is tested in test/mail).
    await t.db
      .updateTable('mail_outbox')
      .set({ next_attempt_at: new Date().toISOString() })
      .where('id', '=', failed.id)
      .execute();

    const sent = await waitFor('the mail to go out', async () => {
      const row = await t.db
        .selectFrom('mail_outbox')
        .selectAll()
        .where('id', '=', failed.id)
        .executeTakeFirstOrThrow();
      return row.status === 'sent' ? row : undefined;
    });
    expect(sent.attempts).toBe(failed.attempts + 1);
    expect(received).toHaveLength(1);
    expect(received[0]).toContain(ticket.tracking_code);
  }, 90_000);
});
