// Graceful shutdown of the real server process: SIGTERM during load lets the request in flight
// (a slow multipart upload) finish with 201, refuses new connections, exits 0 within
// SHUTDOWN_TIMEOUT_MS (10 s) and loses no outbox mail. Also: SIGTERM sent to `npm start` (as CI's
// smoke test and most process managers do) reaches the server.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drainOutbox, OUTBOX_DEFAULTS } from '../../src/mail/outbox.js';
import { smtpTransport } from '../../src/mail/transport.js';
import { freePort } from '../../harness/ports.js';
import { launchServer, projectRoot, type ServerProcess } from '../../harness/server.js';
import { waitFor } from '../../harness/wait.js';
import { createTestDatabase, type TestDatabase } from '../helpers/app.js';
import { userWithToken } from '../helpers/factories.js';
import { multipart } from '../helpers/multipart.js';
import { startSmtp } from '../helpers/smtp.js';

/** Resolves with the error code of a fresh TCP connection attempt, or 'connected'. */
function tryConnect(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
  });
}

/** The process listening on the port, from ss(8); undefined when none. */
function listenerPid(port: number): number | undefined {
  try {
    const out = execFileSync('ss', ['-Hltnp', `sport = :${port}`], { encoding: 'utf8' });
    const match = /pid=(\d+)/.exec(out);
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** A multipart ticket upload over a raw socket whose second half is sent on demand. */
function splitUpload(port: number, token: string) {
  const fileBytes = Buffer.from(`${'a slow upload line\n'.repeat(3_000)}`);
  const form = multipart(
    [
      ['subject', 'Slow upload'],
      ['message', 'Sent across a shutdown.'],
    ],
    [{ name: 'slow.txt', content: fileBytes, type: 'text/plain' }],
  );
  const body = form.payload;
  // Up to the middle of the file.
  const cut = body.indexOf(fileBytes) + Math.floor(fileBytes.length / 2);
  const socket = net.connect(port, '127.0.0.1');
  let raw = '';
  socket.on('data', (d: Buffer) => (raw += d.toString()));
  socket.on('error', () => undefined);
  const closed = new Promise<string>((resolve) => socket.on('close', () => resolve(raw)));
  socket.write(
    `POST /api/tickets HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n` +
      `Content-Type: ${form.headers['content-type']}\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
  );
  socket.write(body.subarray(0, cut));
  return {
    fileBytes,
    finish: () => socket.write(body.subarray(cut)),
    response: closed,
    destroy: () => socket.destroy(),
  };
}

describe('graceful shutdown of the server process', () => {
  let t: TestDatabase;
  let server: ServerProcess | undefined;
  let loading = false;

  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(async () => {
    loading = false;
    await server?.kill();
    await t.destroy();
  });

  it('on SIGTERM under load: finishes the upload in flight (201), refuses new connections, exits 0 within 10 s, keeps the outbox', async () => {
    // SMTP is down: the confirmation mails stay in the outbox.
    const smtpPort = await freePort();
    server = await launchServer({ env: { ...t.env, SMTP_URL: `smtp://127.0.0.1:${smtpPort}` } });
    const { port, url } = server;
    const owner = await userWithToken(t.db);
    const json = { ...owner.auth, 'content-type': 'application/json' };

    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${url}/api/tickets`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ subject: `Before ${i}`, message: 'Created before the shutdown.' }),
      });
      expect(res.status).toBe(201);
    }

    // Load: clients creating and listing tickets until the server is gone.
    loading = true;
    const created: number[] = [];
    const statuses: number[] = [];
    const loop = async (n: number) => {
      while (loading) {
        try {
          const res =
            n % 2
              ? await fetch(`${url}/api/tickets`, { headers: owner.auth })
              : await fetch(`${url}/api/tickets`, {
                  method: 'POST',
                  headers: json,
                  body: JSON.stringify({ subject: `Load ${n}`, message: 'Created during the shutdown test.' }),
                });
          statuses.push(res.status);
          const body = (await res.json()) as { data?: { id?: number } };
          if (res.status === 201) created.push(body.data!.id!);
        } catch {
          await new Promise((r) => setTimeout(r, 20)); // refused: the server is closing
        }
      }
    };
    const loops = [0, 1, 2, 3].map(loop);
    await waitFor('load to run', async () => created.length >= 5);

    // An upload in progress: half of its file is on the server when SIGTERM arrives.
    const upload = splitUpload(port, owner.token);
    const tmpDir = path.join(t.dataDir, 'attachments', '.tmp');
    await waitFor(
      'the upload to reach the disk',
      async () => fs.existsSync(tmpDir) && fs.readdirSync(tmpDir).length > 0,
    );

    const sentAt = Date.now();
    server.child.kill('SIGTERM');
    // New connections are refused while the upload is still open.
    await waitFor('the listening socket to close', async () => (await tryConnect(port)) === 'ECONNREFUSED', 5_000, 50);
    upload.finish();
    const raw = await upload.response;
    const exitCode = await server.exited;
    const elapsed = Date.now() - sentAt;
    loading = false;
    await Promise.all(loops);

    expect(raw.split('\r\n')[0]).toBe('HTTP/1.1 201 Created');
    const answer = JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)) as {
      data: { id: number; attachments: Array<{ file_size: number }> };
    };
    expect(answer.data.attachments).toEqual([
      expect.objectContaining({ file_name: 'slow.txt', file_size: upload.fileBytes.length }),
    ]);
    expect(exitCode).toBe(0);
    expect(elapsed).toBeLessThan(10_000);
    expect(server.output()).not.toMatch(/shutdown took too long|error while shutting down/);
    // Clients saw answers or refusals, never a server error other than the closing notice.
    expect(statuses.filter((s) => s >= 500 && s !== 503)).toEqual([]);

    // The upload's ticket and file are stored; nothing acknowledged is missing.
    const key = await t.db
      .selectFrom('ticket_attachments')
      .select(['storage_key', 'file_size'])
      .where('ticket_id', '=', answer.data.id)
      .executeTakeFirstOrThrow();
    expect(fs.statSync(path.join(t.dataDir, 'attachments', key.storage_key.slice(0, 2), key.storage_key)).size).toBe(
      upload.fileBytes.length,
    );
    const stored = await t.db
      .selectFrom('tickets')
      .select('id')
      .where('id', 'in', [...created, answer.data.id])
      .execute();
    expect(stored).toHaveLength(created.length + 1);

    // Every ticket has its confirmation mail waiting; none was dropped or given up.
    const mail = await t.db.selectFrom('mail_outbox').select(['id', 'status']).execute();
    const tickets = await t.db.selectFrom('tickets').select('id').execute();
    expect(mail).toHaveLength(tickets.length);
    expect(mail.every((m) => m.status === 'pending')).toBe(true);

    // When a mail server is back, all of them go out.
    const smtp = await startSmtp(smtpPort);
    const received = smtp.received;
    try {
      const transport = smtpTransport(`smtp://127.0.0.1:${smtpPort}`);
      const later = new Date(Date.now() + 3_600_000); // past any backoff and claim
      let sent = 0;
      // A batch a round: a slow machine creates more tickets during the load (201 were seen, one
      // more than ten rounds send), so the rounds follow the mail's count, with room to spare.
      const rounds = Math.ceil(mail.length / OUTBOX_DEFAULTS.batchSize) + 2;
      for (let round = 0; round < rounds && sent < mail.length; round++)
        sent += (await drainOutbox(t.db, transport, 'support@platform.local', { now: later })).sent;
      transport.close();
      expect(sent).toBe(mail.length);
      expect(received).toHaveLength(mail.length);
    } finally {
      await smtp.close();
    }
  }, 120_000);
});

describe('shutdown while a mail is being sent to an unresponsive SMTP server', () => {
  let t: TestDatabase;
  let server: ServerProcess | undefined;
  let silent: net.Server | undefined;
  const held: net.Socket[] = [];

  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(async () => {
    for (const s of held) s.destroy();
    silent?.close();
    await server?.kill();
    await t.destroy();
  });

  it('still exits 0 within 10 s, and the mail stays in the outbox to be sent later', async () => {
    // Accepts connections and never says a word: the sender waits for a greeting that never comes.
    silent = net.createServer((socket) => held.push(socket));
    const smtpPort = await freePort();
    await new Promise<void>((resolve) => silent!.listen(smtpPort, '127.0.0.1', () => resolve()));
    server = await launchServer({ env: { ...t.env, SMTP_URL: `smtp://127.0.0.1:${smtpPort}` } });
    const owner = await userWithToken(t.db);
    const res = await fetch(`${server.url}/api/tickets`, {
      method: 'POST',
      headers: { ...owner.auth, 'content-type': 'application/json' },
      body: JSON.stringify({
        subject: 'Mail in flight',
        message: 'The confirmation is being sent when the server stops.',
      }),
    });
    expect(res.status).toBe(201);
    await waitFor('the worker to connect to the SMTP server', async () => held.length > 0, 15_000);

    const sentAt = Date.now();
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(Date.now() - sentAt).toBeLessThan(10_000);
    const mail = await t.db.selectFrom('mail_outbox').select(['status', 'sent_at', 'locked_until']).execute();
    expect(mail).toEqual([{ status: 'pending', sent_at: null, locked_until: expect.any(String) }]);
    // The claim of the interrupted send lapses within the outbox's lock time (2 min); then it is retried.
    expect(Date.parse(mail[0]!.locked_until!)).toBeLessThanOrEqual(Date.now() + 120_000);
  }, 60_000);
});

describe('npm start and signals', () => {
  // The real package.json and server in a scratch folder: dist/server.js there loads src/server.ts
  // through tsx, so the test needs no build and never rebuilds the shared dist/. (CI's smoke test
  // does the same with the built server.)
  it('delivers SIGTERM sent to npm to the server, which exits 0, and npm exits 0', async () => {
    const t = await createTestDatabase();
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'npm-start-'));
    fs.copyFileSync(path.join(projectRoot, 'package.json'), path.join(scratch, 'package.json'));
    fs.symlinkSync(path.join(projectRoot, 'node_modules'), path.join(scratch, 'node_modules'));
    fs.mkdirSync(path.join(scratch, 'dist'));
    fs.writeFileSync(
      path.join(scratch, 'dist', 'server.js'),
      `import { register } from 'tsx/esm/api';\nregister();\nawait import(${JSON.stringify(pathToFileURL(path.join(projectRoot, 'src', 'server.ts')).href)});\n`,
    );
    const port = await freePort();
    let npm: ServerProcess | undefined;
    try {
      npm = await launchServer({
        command: ['npm', 'start', '--ignore-scripts', '--silent'],
        cwd: scratch,
        port,
        env: { ...t.env, LOG_LEVEL: 'info' },
      });
      npm.child.kill('SIGTERM');
      expect(await npm.exited).toBe(0);
      // The server itself handled the signal (it logs the shutdown) and no longer listens.
      expect(npm.output()).toContain('shutting down');
      expect(await tryConnect(port)).toBe('ECONNREFUSED');
    } finally {
      await npm?.kill();
      // Had the signal not reached it, the server would be left running: stop that process by its id.
      const orphan = listenerPid(port);
      if (orphan) process.kill(orphan, 'SIGKILL');
      fs.rmSync(scratch, { recursive: true, force: true });
      await t.destroy();
    }
  }, 120_000);
});
