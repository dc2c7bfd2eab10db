// The storage sweep: which files it removes (temporary and unreferenced ones past the grace
// period), which it never touches (recorded files, young files, files it did not write), the
// storage:sweep command and the sweep an instance runs when it starts.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sweepStorage } from '../../src/modules/tickets/storage/sweep.js';
import { buildApp } from '../../src/app.js';
import { waitFor } from '../../harness/wait.js';
import { createTestDatabase, type TestDatabase } from '../helpers/app.js';
import { makeUser, userWithToken } from '../helpers/factories.js';
import { runCli } from '../helpers/process.js';
import { multipart } from '../helpers/multipart.js';
import { PNG } from '../tickets/helpers.js';

const HOUR = 3_600_000;

function plant(dataDir: string, relative: string, ageMs: number, content = 'bytes'): string {
  const full = path.join(dataDir, 'attachments', relative);
  fs.mkdirSync(path.dirname(full), { recursive: true });
  fs.writeFileSync(full, content);
  const when = new Date(Date.now() - ageMs);
  fs.utimesSync(full, when, when);
  return full;
}

const newKey = () => randomBytes(16).toString('hex');
const keyPath = (key: string) => `${key.slice(0, 2)}/${key}`;

async function recordAttachment(t: TestDatabase, key: string) {
  const now = new Date().toISOString();
  const user = await makeUser(t.db);
  const ticket = await t.db
    .insertInto('tickets')
    .values({
      tracking_code: `TK-${key.slice(0, 8)}`,
      user_id: user.id,
      email: null,
      subject: 's',
      message: 'm',
      status: 'open',
      priority: 'normal',
      category: null,
      assignee_id: null,
      sla_deadline: now,
      first_response_due_at: now,
      first_response_at: null,
      resolved_at: null,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await t.db
    .insertInto('ticket_attachments')
    .values({
      ticket_id: ticket.id,
      comment_id: null,
      file_name: 'a.png',
      file_type: 'image/png',
      file_size: 5,
      storage_key: key,
      created_at: now,
    })
    .execute();
}

describe('storage sweep', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(() => t.destroy());
  beforeEach(() => fs.rmSync(path.join(t.dataDir, 'attachments'), { recursive: true, force: true }));

  it('removes old temporary files and old unreferenced files, and keeps recorded, young and foreign files', async () => {
    const recordedOld = newKey();
    await recordAttachment(t, recordedOld);
    const files = {
      oldTemp: plant(t.dataDir, `.tmp/${newKey()}`, 2 * HOUR),
      youngTemp: plant(t.dataDir, `.tmp/${newKey()}`, 5_000),
      oldOrphan: plant(t.dataDir, keyPath(newKey()), 2 * HOUR),
      youngOrphan: plant(t.dataDir, keyPath(newKey()), 60_000),
      recordedOld: plant(t.dataDir, keyPath(recordedOld), 30 * 24 * HOUR),
      foreign: plant(t.dataDir, 'ab/README', 2 * HOUR),
      misplaced: plant(t.dataDir, `00/ff${newKey().slice(2)}`, 2 * HOUR),
    };

    const result = await sweepStorage(t.db, t.dataDir);

    expect(result.removed.map((f) => [f.kind, path.join(t.dataDir, 'attachments', f.file)]).sort()).toEqual(
      [
        ['temporary', files.oldTemp],
        ['unreferenced', files.oldOrphan],
      ].sort(),
    );
    expect(fs.existsSync(files.oldTemp)).toBe(false);
    expect(fs.existsSync(files.oldOrphan)).toBe(false);
    for (const kept of [files.youngTemp, files.youngOrphan, files.recordedOld, files.foreign, files.misplaced])
      expect(fs.existsSync(kept)).toBe(true);
    expect(result.tooYoung).toBe(2);
    expect(result.removed[0]!.size).toBe(5);
  });

  it('uses the grace period it is given', async () => {
    const tenMinutes = plant(t.dataDir, keyPath(newKey()), 10 * 60_000);
    expect((await sweepStorage(t.db, t.dataDir)).removed).toHaveLength(0);
    expect((await sweepStorage(t.db, t.dataDir, { graceMs: 5 * 60_000 })).removed).toHaveLength(1);
    expect(fs.existsSync(tenMinutes)).toBe(false);
  });

  it('removes nothing on a dry run but reports what it would remove', async () => {
    const orphan = plant(t.dataDir, keyPath(newKey()), 2 * HOUR);
    const result = await sweepStorage(t.db, t.dataDir, { dryRun: true });
    expect(result.removed).toHaveLength(1);
    expect(fs.existsSync(orphan)).toBe(true);
  });

  it('looks recorded keys up in chunks, so a large store keeps every recorded file', async () => {
    const keys = Array.from({ length: 1_200 }, () => `aa${newKey().slice(2)}`);
    const now = new Date().toISOString();
    await recordAttachment(t, keys[0]!);
    const ticket = await t.db
      .selectFrom('ticket_attachments')
      .select('ticket_id')
      .where('storage_key', '=', keys[0]!)
      .executeTakeFirstOrThrow();
    for (let i = 1; i < 700; i += 100) {
      await t.db
        .insertInto('ticket_attachments')
        .values(
          keys.slice(i, Math.min(i + 100, 700)).map((k) => ({
            ticket_id: ticket.ticket_id,
            comment_id: null,
            file_name: 'a.png',
            file_type: 'image/png',
            file_size: 5,
            storage_key: k,
            created_at: now,
          })),
        )
        .execute();
    }
    for (const k of keys) plant(t.dataDir, keyPath(k), 2 * HOUR);
    const result = await sweepStorage(t.db, t.dataDir);
    expect(result.removed).toHaveLength(500);
    expect(new Set(result.removed.map((f) => path.basename(f.file)))).toEqual(new Set(keys.slice(700)));
    expect(fs.readdirSync(path.join(t.dataDir, 'attachments', 'aa'))).toHaveLength(700);
  });

  it('does nothing when no file was ever stored', async () => {
    expect(await sweepStorage(t.db, t.dataDir)).toEqual({ removed: [], scanned: 0, tooYoung: 0 });
  });
});

describe('storage:sweep command', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(() => t.destroy());

  it('prints each removed file and a summary, leaving young and recorded files', async () => {
    const recorded = newKey();
    await recordAttachment(t, recorded);
    const orphanKey = newKey();
    const orphan = plant(t.dataDir, keyPath(orphanKey), 2 * HOUR, 'twelve bytes');
    const young = plant(t.dataDir, keyPath(newKey()), 10 * 60_000);
    const kept = plant(t.dataDir, keyPath(recorded), 2 * HOUR);

    const res = await runCli(['storage:sweep'], t.env);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const lines = res.stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      new RegExp(
        `^removed ${keyPath(orphanKey)} \\(unreferenced, 12 bytes, last written \\d{4}-\\d\\d-\\d\\dT[^)]+Z\\)$`,
      ),
    );
    expect(lines[1]).toBe('storage:sweep: removed 1 file (12 bytes); 3 scanned, 1 younger than 60 min left alone');
    expect(fs.existsSync(orphan)).toBe(false);
    expect(fs.existsSync(young)).toBe(true);
    expect(fs.existsSync(kept)).toBe(true);

    const shorter = await runCli(['storage:sweep', '--older-than-minutes', '5', '--dry-run'], t.env);
    expect(shorter.code).toBe(0);
    expect(shorter.stdout).toContain(
      `would remove ${path.relative(path.join(t.dataDir, 'attachments'), young)} (unreferenced`,
    );
    expect(shorter.stdout.trim().split('\n').at(-1)).toBe(
      'storage:sweep: would remove 1 file (5 bytes); 2 scanned, 0 younger than 5 min left alone',
    );
    expect(fs.existsSync(young)).toBe(true);
  }, 60_000);

  it('refuses a grace period that is not a whole number of minutes (exit 2)', async () => {
    for (const bad of ['-1', 'soon', '1.5']) {
      const res = await runCli(['storage:sweep', `--older-than-minutes=${bad}`], t.env);
      expect(res.code).toBe(2);
      expect(res.stderr.trim()).toBe('error: --older-than-minutes must be a whole number of minutes (0 or more)');
    }
  }, 60_000);
});

describe('startup sweep', () => {
  it('runs when an instance starts: old orphans go, young files and recorded files stay', async () => {
    const seed = await createTestDatabase();
    const recorded = newKey();
    await recordAttachment(seed, recorded);
    const dataDir = seed.dataDir;
    const oldTemp = plant(dataDir, `.tmp/${newKey()}`, 3 * HOUR);
    const oldOrphan = plant(dataDir, keyPath(newKey()), 3 * HOUR);
    const youngTemp = plant(dataDir, `.tmp/${newKey()}`, 1_000);
    const kept = plant(dataDir, keyPath(recorded), 3 * HOUR);

    // An app on the same database and files: its tickets plugin sweeps in the background once ready.
    const app = await buildApp({
      config: { ...seed.config, LOG_LEVEL: 'silent' },
      database: seed.handle,
      logger: false,
      startWorkers: true,
      loadGeoData: false,
    });
    try {
      await app.ready();
      await waitFor('the startup sweep', async () => !fs.existsSync(oldTemp) && !fs.existsSync(oldOrphan));
      expect(fs.existsSync(youngTemp)).toBe(true);
      expect(fs.existsSync(kept)).toBe(true);
      // Uploads keep working after the sweep, and their files stay.
      const { auth } = await userWithToken(seed.db);
      const body = multipart(
        [
          ['subject', 'After sweep'],
          ['message', 'A file after the startup sweep.'],
        ],
        [{ name: 'a.png', content: PNG }],
      );
      const res = await app.inject({
        method: 'POST',
        url: '/api/tickets',
        headers: { ...auth, ...body.headers },
        payload: body.payload,
      });
      expect(res.statusCode).toBe(201);
      const key = (
        await seed.db
          .selectFrom('ticket_attachments')
          .select('storage_key')
          .where('file_name', '=', 'a.png')
          .orderBy('id', 'desc')
          .executeTakeFirstOrThrow()
      ).storage_key;
      expect(fs.existsSync(path.join(dataDir, 'attachments', keyPath(key)))).toBe(true);
    } finally {
      await app.close();
      await seed.destroy();
    }
  });
});

describe('startup sweep beside a running instance', () => {
  it('leaves alone the upload another instance is writing at that moment; that upload completes and is served', async () => {
    const seed = await createTestDatabase();
    const options = {
      config: { ...seed.config, LOG_LEVEL: 'silent' as const },
      database: seed.handle,
      logger: false,
      loadGeoData: false,
    };
    const first = await buildApp({ ...options, startWorkers: false });
    let second: Awaited<ReturnType<typeof buildApp>> | undefined;
    const socket = new net.Socket();
    try {
      await first.listen({ port: 0, host: '127.0.0.1' });
      const port = (first.server.address() as net.AddressInfo).port;
      const { token } = await userWithToken(seed.db);

      // The first instance receives half of an upload.
      const content = Buffer.from('line of an upload in progress\n'.repeat(4_000));
      const body = multipart(
        [
          ['subject', 'Upload during a sweep'],
          ['message', 'Another instance starts meanwhile.'],
        ],
        [{ name: 'progress.txt', content }],
      );
      const cut = body.payload.indexOf(content) + content.length / 2;
      let raw = '';
      socket.on('data', (d: Buffer) => (raw += d.toString()));
      const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
      await new Promise<void>((resolve) => socket.connect(port, '127.0.0.1', resolve));
      socket.write(
        `POST /api/tickets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: ` +
          `${body.headers['content-type']}\r\nContent-Length: ${body.payload.length}\r\nConnection: close\r\n\r\n`,
      );
      socket.write(body.payload.subarray(0, cut));
      const tmp = path.join(seed.dataDir, 'attachments', '.tmp');
      await waitFor('the upload to reach the disk', async () => fs.existsSync(tmp) && fs.readdirSync(tmp).length === 1);

      // A second instance starts on the same database and files and sweeps (a leftover marks its end).
      const marker = plant(seed.dataDir, keyPath(newKey()), 2 * HOUR);
      second = await buildApp({ ...options, startWorkers: true });
      await second.ready();
      await waitFor('the second instance to sweep', async () => !fs.existsSync(marker));
      expect(fs.readdirSync(tmp)).toHaveLength(1);

      // The first instance's upload completes, and the second serves its file.
      socket.write(body.payload.subarray(cut));
      await closed;
      expect(raw.split('\r\n')[0]).toBe('HTTP/1.1 201 Created');
      const created = JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)) as {
        data: { id: number; attachments: Array<{ id: number }> };
      };
      const download = await second.inject({
        method: 'GET',
        url: `/api/tickets/${created.data.id}/attachments/${created.data.attachments[0]!.id}/download`,
        headers: { authorization: `Bearer ${token}` },
      });
      expect(download.statusCode).toBe(200);
      expect(download.rawPayload.equals(content)).toBe(true);
    } finally {
      socket.destroy();
      await second?.close();
      await first.close();
      await seed.destroy();
    }
  });
});
