// Crash safety: the real server under 50 ticket creations and 50 comments with attachments is
// killed with SIGKILL in the middle, then started again on the same database and DATA_DIR.
// Everything acknowledged (2xx) is there with byte-identical files; no attachment row points to a
// missing file; files the crash left without a row are removed by the startup sweep.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchServer, type ServerProcess } from '../../harness/server.js';
import { waitFor } from '../../harness/wait.js';
import { createTestDatabase, type TestDatabase } from '../helpers/app.js';
import { filesUnder } from '../../harness/files.js';
import { userWithToken } from '../helpers/factories.js';
import { multipart, type FilePart } from '../helpers/multipart.js';
import { uniqueFiles } from './helpers.js';

interface Acked {
  kind: 'ticket' | 'comment';
  ticketId: number;
  commentId?: number;
  /** What the client sent, by file name. */
  files: FilePart[];
  /** What the server answered: attachment ids by file name. */
  attachments: Array<{ id: number; file_name: string; file_size: number }>;
}

/** Sends the head of a multipart upload and never the rest: the server streams it to a temporary file. */
function stalledUpload(url: string, token: string): net.Socket {
  const { port } = new URL(url);
  const body = multipart(
    [],
    [{ name: 'big.txt', content: Buffer.from('partial line of text\n'.repeat(2_000)), type: 'text/plain' }],
  );
  const socket = net.connect(Number(port), '127.0.0.1');
  socket.on('error', () => undefined);
  socket.write(
    `POST /api/tickets HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n` +
      `Content-Type: ${body.headers['content-type']}\r\nContent-Length: 5000000\r\n\r\n`,
  );
  // The file's part without its end: the rest of the 5 MB never comes.
  socket.write(body.payload.subarray(0, body.payload.lastIndexOf(`\r\n--${body.boundary}--`)));
  return socket;
}

describe('crash safety: kill -9 during uploads', () => {
  let t: TestDatabase;
  const servers: ServerProcess[] = [];
  const sockets: net.Socket[] = [];

  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    for (const s of servers) await s.kill();
    await t.destroy();
  });

  it('keeps every acknowledged ticket and comment with readable, identical files; the startup sweep removes the leftovers', async () => {
    const first = await launchServer({ env: t.env });
    servers.push(first);
    const owner = await userWithToken(t.db);

    // Tickets to comment on, created before the load.
    const targets: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${first.url}/api/tickets`, {
        method: 'POST',
        headers: { ...owner.auth, 'content-type': 'application/json' },
        body: JSON.stringify({
          subject: `Target ${i}`,
          message: 'A ticket that receives comments during the crash test.',
        }),
      });
      expect(res.status).toBe(201);
      targets.push(((await res.json()) as { data: { id: number } }).data.id);
    }

    // Uploads in progress at the moment of the crash leave temporary files behind.
    const tmpDir = path.join(t.dataDir, 'attachments', '.tmp');
    for (let i = 0; i < 3; i++) sockets.push(stalledUpload(first.url, owner.token));
    await waitFor('stalled uploads to reach the disk', async () => filesUnder(tmpDir).length >= 3);

    const acked: Acked[] = [];
    const failures: string[] = [];
    let killed = false;
    const killAfter = 15;
    const send = async (kind: 'ticket' | 'comment', i: number) => {
      const files = uniqueFiles(`${kind}${i}`).slice(0, 1 + (i % 3));
      const ticketId = targets[i % targets.length]!;
      const url = kind === 'ticket' ? `${first.url}/api/tickets` : `${first.url}/api/tickets/${ticketId}/comments`;
      const fields: Array<[string, string]> =
        kind === 'ticket'
          ? [
              ['subject', `Load ticket ${i}`],
              ['message', `Crash test ticket number ${i}.`],
            ]
          : [['message', `Crash test comment number ${i}.`]];
      const form = multipart(fields, files);
      try {
        const res = await fetch(url, {
          method: 'POST',
          headers: { ...owner.auth, ...form.headers },
          body: form.payload,
        });
        const body = (await res.json()) as { data: { id: number; attachments: Acked['attachments'] } };
        if (res.status >= 200 && res.status < 300) {
          acked.push({
            kind,
            ticketId: kind === 'ticket' ? body.data.id : ticketId,
            commentId: kind === 'comment' ? body.data.id : undefined,
            files,
            attachments: body.data.attachments,
          });
          if (acked.length >= killAfter && !killed) {
            killed = true;
            first.child.kill('SIGKILL');
          }
        } else {
          failures.push(`${res.status} ${JSON.stringify(body)}`);
        }
      } catch {
        // The connection died with the server: not acknowledged, so nothing is promised.
      }
    };
    await Promise.all(Array.from({ length: 50 }, (_, i) => [send('ticket', i), send('comment', i)]).flat());
    expect(await first.exited).toBe('SIGKILL');
    expect(failures).toEqual([]);
    // The kill landed in the middle: some writes were acknowledged, not all of them.
    expect(acked.length).toBeGreaterThanOrEqual(killAfter);
    expect(acked.length).toBeLessThan(100);
    expect(filesUnder(tmpDir).length).toBeGreaterThanOrEqual(3);
    for (const s of sockets) s.destroy();

    // Files left by the crash are hours old by the time anyone restarts (the sweep's grace period).
    const twoHoursAgo = new Date(Date.now() - 2 * 3_600_000);
    for (const file of filesUnder(path.join(t.dataDir, 'attachments'))) fs.utimesSync(file, twoHoursAgo, twoHoursAgo);

    const second = await launchServer({ env: t.env });
    servers.push(second);

    // Every acknowledged write is there with each file byte for byte.
    for (const write of acked) {
      const res = await fetch(`${second.url}/api/tickets/${write.ticketId}`, { headers: owner.auth });
      expect(res.status).toBe(200);
      const detail = (await res.json()) as {
        data: { attachments: Acked['attachments']; comments: Array<{ id: number; attachments: Acked['attachments'] }> };
      };
      const listed =
        write.kind === 'ticket'
          ? detail.data.attachments
          : detail.data.comments.find((c) => c.id === write.commentId)?.attachments;
      expect(listed, `${write.kind} ${write.commentId ?? write.ticketId}`).toBeDefined();
      expect(listed!.map((a) => a.id).sort()).toEqual(write.attachments.map((a) => a.id).sort());
      expect(write.attachments.map((a) => a.file_name).sort()).toEqual(write.files.map((f) => f.name).sort());
      for (const attachment of write.attachments) {
        const download = await fetch(
          `${second.url}/api/tickets/${write.ticketId}/attachments/${attachment.id}/download`,
          { headers: owner.auth },
        );
        expect(download.status).toBe(200);
        const sent = write.files.find((f) => f.name === attachment.file_name)!;
        expect(Buffer.from(await download.arrayBuffer()).equals(sent.content)).toBe(true);
      }
    }

    // No row points to a missing or short file (acknowledged or not: a write whose answer was lost counts too).
    const root = path.join(t.dataDir, 'attachments');
    const rows = await t.db.selectFrom('ticket_attachments').select(['storage_key', 'file_size']).execute();
    for (const row of rows) {
      const file = path.join(root, row.storage_key.slice(0, 2), row.storage_key);
      expect(fs.existsSync(file), row.storage_key).toBe(true);
      expect(fs.statSync(file).size).toBe(row.file_size);
    }
    // The startup sweep leaves exactly the recorded files.
    const recorded = new Set(rows.map((r) => r.storage_key));
    await waitFor('the startup sweep', async () => filesUnder(root).every((f) => recorded.has(path.basename(f))));
    expect(
      filesUnder(root)
        .map((f) => path.basename(f))
        .sort(),
    ).toEqual([...recorded].sort());

    // And the restarted server takes uploads again.
    const form = multipart(
      [
        ['subject', 'After the crash'],
        ['message', 'Uploading after a restart.'],
      ],
      uniqueFiles('after'),
    );
    const again = await fetch(`${second.url}/api/tickets`, {
      method: 'POST',
      headers: { ...owner.auth, ...form.headers },
      body: form.payload,
    });
    expect(again.status).toBe(201);
  }, 240_000);
});
