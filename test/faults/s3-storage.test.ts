// Faults of the S3 attachment storage: the server down (stopped s3rver) or failing (a proxy in
// front of it answering 500) gives uploads and downloads 503 {message} with Retry-After and leaves
// no row, no object and no local file; an upload the client cuts off mid-body leaves no object and
// no row; a request that fails after some of its files were kept removes those objects.
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../harness/wait.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { filesUnder } from '../../harness/files.js';
import type { TestUser } from '../helpers/factories.js';
import { startS3, type TestS3 } from '../helpers/s3.js';
import { multipart, type FilePart } from '../helpers/multipart.js';
import { PDF, PNG } from '../tickets/helpers.js';

const UNAVAILABLE = { message: 'Service temporarily unavailable. Please try again shortly.' };
const FILES: FilePart[] = [
  { name: 'first.png', content: PNG },
  { name: 'second.pdf', content: PDF },
];

/** Forwards to s3rver, except the requests `fails` picks, which get S3's 500 InternalError. */
class FailingProxy {
  fails: (req: http.IncomingMessage) => boolean = () => false;
  failed = 0;
  private readonly server: http.Server;

  constructor(targetPort: number) {
    this.server = http.createServer((req, res) => {
      if (this.fails(req)) {
        this.failed++;
        req.resume();
        req.on('end', () => {
          res.writeHead(500, { 'content-type': 'application/xml' });
          res.end(
            '<?xml version="1.0" encoding="UTF-8"?><Error><Code>InternalError</Code><Message>We encountered an internal error.</Message></Error>',
          );
        });
        return;
      }
      // Headers unchanged (Host included), so the signature s3rver checks still matches.
      const upstream = http.request(
        { host: '127.0.0.1', port: targetPort, method: req.method, path: req.url, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    });
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as net.AddressInfo).port}`;
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

describe('S3 storage faults', () => {
  let s3: TestS3;
  let proxy: FailingProxy;
  let t: TestApp;
  let user: TestUser;

  const counts = async () => ({
    tickets: (await t.db.selectFrom('tickets').select('id').execute()).length,
    attachments: (await t.db.selectFrom('ticket_attachments').select('id').execute()).length,
  });
  const upload = (files: FilePart[], subject = 'During an outage') => {
    const body = multipart(
      [
        ['subject', subject],
        ['message', 'Files sent while the storage is in trouble.'],
      ],
      files,
    );
    return t.app.inject({
      method: 'POST',
      url: '/api/tickets',
      headers: { ...user.auth, ...body.headers },
      payload: body.payload,
    });
  };
  /** Files on the local disk: with S3 only temporary ones, and none may stay behind. */
  const localFiles = async () => filesUnder(path.join(t.dataDir, 'attachments')).map((file) => path.basename(file));

  beforeAll(async () => {
    s3 = await startS3();
    proxy = new FailingProxy(Number(new URL(s3.endpoint).port));
    const endpoint = await proxy.start();
    t = await buildTestApp({ config: { ...s3.config, S3_ENDPOINT: endpoint } });
    user = await t.makeUser();
  });
  afterAll(async () => {
    await t?.close();
    await proxy?.stop();
    await s3?.close();
  });
  beforeEach(async () => {
    proxy.fails = () => false;
    await s3.start();
  });

  it('answers 503 with Retry-After while the server is down, records nothing, and works again once it is back', async () => {
    const stored = (await upload([{ name: 'before.png', content: PNG }], 'Before the outage')).json().data;
    const before = { objects: s3.objects(), rows: await counts() };

    await s3.stop();
    const res = await upload(FILES);
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.json()).toEqual(UNAVAILABLE);
    const comment = multipart([['message', 'A comment with a file.']], [{ name: 'c.pdf', content: PDF }]);
    const commented = await t.app.inject({
      method: 'POST',
      url: `/api/tickets/${stored.id}/comments`,
      headers: { ...user.auth, ...comment.headers },
      payload: comment.payload,
    });
    expect(commented.statusCode).toBe(503);
    const download = await t.app.inject({
      method: 'GET',
      url: `/api/tickets/${stored.id}/attachments/${stored.attachments[0].id}/download`,
      headers: user.auth,
    });
    expect(download.statusCode).toBe(503);
    expect(download.json()).toEqual(UNAVAILABLE);
    // Nothing else waits on the storage: a ticket without files is still created.
    const plain = await t.app.inject({
      method: 'POST',
      url: '/api/tickets',
      headers: user.auth,
      payload: { subject: 'No files', message: 'Written while the storage is down.' },
    });
    expect(plain.statusCode).toBe(201);
    expect(await counts()).toEqual({ tickets: before.rows.tickets + 1, attachments: before.rows.attachments });
    expect(await localFiles()).toEqual([]);

    await s3.start();
    expect(s3.objects()).toEqual(before.objects);
    expect((await upload(FILES, 'After the outage')).statusCode).toBe(201);
    const again = await t.app.inject({
      method: 'GET',
      url: `/api/tickets/${stored.id}/attachments/${stored.attachments[0].id}/download`,
      headers: user.auth,
    });
    expect(again.rawPayload.equals(PNG)).toBe(true);
  }, 60_000);

  it('answers 503 while the server answers 500, for uploads and downloads', async () => {
    const stored = (await upload([{ name: 'ok.png', content: PNG }], 'Stored before the errors')).json().data;
    const before = { objects: s3.objects(), rows: await counts() };
    proxy.fails = () => true;
    const failedBefore = proxy.failed;

    const res = await upload(FILES);
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual(UNAVAILABLE);
    const download = await t.app.inject({
      method: 'GET',
      url: `/api/tickets/${stored.id}/attachments/${stored.attachments[0].id}/download`,
      headers: user.auth,
    });
    expect(download.statusCode).toBe(503);
    // The upload was tried three times (keep() reopens the file), the download by the SDK's retries.
    expect(proxy.failed - failedBefore).toBeGreaterThanOrEqual(4);
    expect(await counts()).toEqual(before.rows);
    expect(s3.objects()).toEqual(before.objects);
    expect(await localFiles()).toEqual([]);
  }, 60_000);

  it('removes the objects already kept when a later file of the request cannot be stored', async () => {
    const before = { objects: s3.objects(), rows: await counts() };
    let puts = 0;
    proxy.fails = (req) => req.method === 'PUT' && ++puts > 1;

    const res = await upload(FILES);
    expect(res.statusCode).toBe(503);
    expect(puts).toBeGreaterThan(1); // the first file was kept, then the second failed
    expect(await counts()).toEqual(before.rows);
    expect(s3.objects()).toEqual(before.objects);
  }, 60_000);

  it('leaves no object and no row when the client cuts the upload off mid-body', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as net.AddressInfo).port;
    const before = { objects: s3.objects(), rows: await counts() };
    const second = Buffer.from('a second file the client never finishes sending\n'.repeat(2_000));
    const body = multipart(
      [
        ['subject', 'Cut off'],
        ['message', 'The client goes away in the middle of the second file.'],
      ],
      [
        { name: 'first.png', content: PNG },
        { name: 'second.txt', content: second },
      ],
    );
    const cut = body.payload.indexOf(second) + second.length / 2;

    const socket = net.connect(port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    socket.write(
      `POST /api/tickets HTTP/1.1\r\nHost: x\r\nAuthorization: ${user.auth.authorization}\r\nContent-Type: ` +
        `${body.headers['content-type']}\r\nContent-Length: ${body.payload.length}\r\n\r\n`,
    );
    socket.write(body.payload.subarray(0, cut));
    // The first file is in the bucket before the client goes: the test sees the object removed.
    await waitFor('the first file to reach the bucket', async () => s3.objects().length === before.objects.length + 1);
    socket.destroy();

    await waitFor('the object to be removed', async () => s3.objects().length === before.objects.length, 10_000);
    expect(s3.objects()).toEqual(before.objects);
    expect(await counts()).toEqual(before.rows);
    await waitFor('the temporary file to go', async () => (await localFiles()).length === 0, 10_000);
  }, 60_000);
});

describe('S3 storage misconfigured', () => {
  let s3: TestS3;
  let t: TestApp;
  beforeAll(async () => {
    s3 = await startS3();
    t = await buildTestApp({ config: { ...s3.config, STORAGE_URL: 's3://no-such-bucket/x' } });
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
  });

  it('answers 500, not 503 or 400, when the bucket does not exist, and records nothing', async () => {
    const user = await t.makeUser();
    const body = multipart(
      [
        ['subject', 'Wrong bucket'],
        ['message', 'The operator named a bucket that does not exist.'],
      ],
      [{ name: 'a.png', content: PNG }],
    );
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/tickets',
      headers: { ...user.auth, ...body.headers },
      payload: body.payload,
    });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ success: false, message: 'Server Error', error: 'internal_error' });
    expect(await t.db.selectFrom('tickets').select('id').execute()).toEqual([]);
    expect(s3.objects()).toEqual([]);
  });
});
