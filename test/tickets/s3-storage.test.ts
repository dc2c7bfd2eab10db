// Attachments in an S3-protocol bucket (STORAGE_URL=s3://…, S3_ENDPOINT): the same answers as on
// the disk, objects named <prefix>/<xx>/<key>, nothing left behind by refused requests, the sweep
// and storage:sweep over the bucket, and the configuration's messages. s3rver stands in for the
// server; MinIO, Ceph RGW and AWS S3 speak the same protocol.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, s3Location } from '../../src/config.js';
import { sweepStorage } from '../../src/modules/tickets/storage/sweep.js';
import { launchServer } from '../../harness/server.js';
import { waitFor } from '../../harness/wait.js';
import { uniqueFiles } from '../faults/helpers.js';
import { buildTestApp, createTestDatabase, type TestApp } from '../helpers/app.js';
import { filesUnder } from '../../harness/files.js';
import { userWithToken, type TestUser } from '../helpers/factories.js';
import { runCli } from '../helpers/process.js';
import { startS3, type TestS3 } from '../helpers/s3.js';
import { multipart, type FilePart } from '../helpers/multipart.js';
import { PDF, PNG } from './helpers.js';

const HOUR = 3_600_000;
const FILES: FilePart[] = [
  { name: 'screen.png', content: PNG },
  { name: 'receipt.pdf', content: PDF },
  { name: 'notes.txt', content: Buffer.from('plain text, سلام\n'.repeat(5_000)) },
];
const HEADERS = ['content-type', 'content-length', 'content-disposition', 'x-content-type-options', 'cache-control'];

async function upload(t: TestApp, user: TestUser, files: FilePart[], extra: Array<[string, string]> = []) {
  const body = multipart(
    [['subject', 'Files in a bucket'], ['message', 'Please look at the attached files.'], ...extra],
    files,
  );
  return t.app.inject({
    method: 'POST',
    url: '/api/tickets',
    headers: { ...user.auth, ...body.headers },
    payload: body.payload,
  });
}

const download = (t: TestApp, user: TestUser, ticketId: number, attachmentId: number) =>
  t.app.inject({
    method: 'GET',
    url: `/api/tickets/${ticketId}/attachments/${attachmentId}/download`,
    headers: user.auth,
  });

const storageKeys = async (t: TestApp) =>
  (await t.db.selectFrom('ticket_attachments').select('storage_key').execute()).map((r) => r.storage_key);

/** Files under DATA_DIR/attachments (temporary ones included): with S3 there must be none left. */
function localFiles(t: TestApp): string[] {
  return filesUnder(path.join(t.dataDir, 'attachments')).map((file) => path.basename(file));
}

describe('attachments in an S3 bucket', () => {
  let s3: TestS3;
  let t: TestApp;
  let disk: TestApp;
  let user: TestUser;
  let diskUser: TestUser;
  const objectOf = (key: string) => `${s3.prefix}/${key.slice(0, 2)}/${key}`;

  beforeAll(async () => {
    s3 = await startS3();
    t = await buildTestApp({ config: s3.config });
    disk = await buildTestApp();
    user = await t.makeUser();
    diskUser = await disk.makeUser();
  });
  afterAll(async () => {
    await t?.close();
    await disk?.close();
    await s3?.close();
  });

  it('stores uploads as objects <prefix>/<xx>/<key>, nothing on the local disk', async () => {
    const before = s3.objects();
    const res = await upload(t, user, FILES);
    expect(res.statusCode).toBe(201);
    const attachments = res.json().data.attachments as Array<{ id: number; file_name: string; file_size: number }>;
    expect(attachments.map((a) => [a.file_name, a.file_size])).toEqual(FILES.map((f) => [f.name, f.content.length]));
    const keys = await t.db
      .selectFrom('ticket_attachments')
      .select('storage_key')
      .where(
        'id',
        'in',
        attachments.map((a) => a.id),
      )
      .execute();
    expect(s3.objects()).toEqual([...before, ...keys.map((k) => objectOf(k.storage_key))].sort());
    expect(localFiles(t)).toEqual([]);
  });

  it('downloads the same bytes with the same headers as the disk storage', async () => {
    const inBucket = (await upload(t, user, FILES)).json().data;
    const onDisk = (await upload(disk, diskUser, FILES)).json().data;
    for (let i = 0; i < FILES.length; i++) {
      const fromBucket = await download(t, user, inBucket.id, inBucket.attachments[i].id);
      const fromDisk = await download(disk, diskUser, onDisk.id, onDisk.attachments[i].id);
      expect(fromBucket.statusCode).toBe(200);
      expect(fromBucket.rawPayload.equals(FILES[i]!.content)).toBe(true);
      for (const name of HEADERS) expect(fromBucket.headers[name], name).toBe(fromDisk.headers[name]);
      expect(fromBucket.headers['content-length']).toBe(String(FILES[i]!.content.length));
    }
  });

  it('keeps comment files in the bucket too', async () => {
    const ticket = (await upload(t, user, [])).json().data;
    const body = multipart([['message', 'The receipt, as asked.']], [{ name: 'receipt.pdf', content: PDF }]);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/tickets/${ticket.id}/comments`,
      headers: { ...user.auth, ...body.headers },
      payload: body.payload,
    });
    expect(res.statusCode).toBe(201);
    const file = await download(t, user, ticket.id, res.json().data.attachments[0].id);
    expect(file.rawPayload.equals(PDF)).toBe(true);
  });

  it('deletes the objects of a request whose transaction fails (unknown tag), and keeps none of a refused file', async () => {
    const before = s3.objects();
    const res = await upload(
      t,
      user,
      [
        { name: 'ok.png', content: PNG },
        { name: 'b.pdf', content: PDF },
      ],
      [['tags[]', '999999']],
    );
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ 'tags.0': ['The selected tags.0 is invalid.'] });
    expect(s3.objects()).toEqual(before);

    const refused = await upload(t, user, [
      { name: 'ok.png', content: PNG },
      { name: 'fake.gif', content: PNG },
    ]);
    expect(refused.statusCode).toBe(422);
    expect(Object.keys(refused.json().errors)).toEqual(['attachments.1']);
    expect(s3.objects()).toEqual(before);
    expect(localFiles(t)).toEqual([]);
  });

  it('answers 404 {success:false, message} when the object is gone from the bucket', async () => {
    const created = (await upload(t, user, [{ name: 'gone.png', content: PNG }])).json().data;
    const [key] = (
      await t.db
        .selectFrom('ticket_attachments')
        .select('storage_key')
        .where('id', '=', created.attachments[0].id)
        .execute()
    ).map((r) => r.storage_key);
    await t.app.attachmentStorage.remove(key!);
    expect(s3.objects()).not.toContain(objectOf(key!));
    const res = await download(t, user, created.id, created.attachments[0].id);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ success: false, message: 'The file no longer exists on the server.' });
  });

  it('sweeps old unrecorded objects and leaves recorded, young and foreign ones', async () => {
    // Recorded keys whose object is in the bucket (the 404 test removed one behind the row's back).
    const recorded = (await storageKeys(t)).map(objectOf).filter((key) => s3.objects().includes(key));
    expect(recorded.length).toBeGreaterThan(5);
    const orphan = objectOf(`ab${'c'.repeat(30)}`);
    const young = objectOf(`cd${'e'.repeat(30)}`);
    const foreign = [
      `${s3.prefix}/ab/README`,
      `${s3.prefix}/00/ff${'1'.repeat(30)}`,
      `elsewhere/ab/ab${'2'.repeat(30)}`,
    ];
    s3.plant(orphan, 'orphan bytes', 2 * HOUR);
    s3.plant(young, 'young', 60_000);
    for (const key of recorded) s3.age(key, 30 * 24 * HOUR);
    for (const key of foreign) s3.plant(key, 'not ours', 2 * HOUR);

    const dry = await sweepStorage(t.db, t.app.attachmentStorage, { dryRun: true });
    expect(dry.removed.map((f) => f.file)).toEqual([orphan]);
    expect(s3.objects()).toContain(orphan);

    const result = await sweepStorage(t.db, t.app.attachmentStorage);
    expect(result.removed).toEqual([{ file: orphan, kind: 'unreferenced', size: 12, modifiedAt: expect.any(String) }]);
    expect(result.tooYoung).toBe(1);
    // Objects this storage did not write (another name shape, another prefix) are not even counted.
    expect(result.scanned).toBe(recorded.length + 2);
    expect(s3.objects()).toEqual([...recorded, ...foreign, young].sort());
  });
});

describe('a server process on the bucket', () => {
  it('finds the credentials in AWS_* variables, stores uploads as objects and serves them', async () => {
    const s3 = await startS3('process-bucket', '');
    const db = await createTestDatabase();
    const server = await launchServer({ env: { ...db.env, ...s3.env, LOG_LEVEL: 'info' } });
    try {
      await waitFor('the start-up line', async () => server.output().includes('attachments in s3://process-bucket/,'));
      const user = await userWithToken(db.db);
      const files = uniqueFiles('process');
      const form = multipart(
        [
          ['subject', 'From a real client'],
          ['message', 'Files through a real server process.'],
        ],
        files,
      );
      const created = await fetch(`${server.url}/api/tickets`, {
        method: 'POST',
        headers: { ...user.auth, ...form.headers },
        body: form.payload,
      });
      expect(created.status).toBe(201);
      const data = ((await created.json()) as { data: { id: number; attachments: Array<{ id: number }> } }).data;
      const keys = (await db.db.selectFrom('ticket_attachments').select('storage_key').execute()).map(
        (r) => `${r.storage_key.slice(0, 2)}/${r.storage_key}`,
      );
      expect(s3.objects()).toEqual(keys.sort());
      for (let i = 0; i < files.length; i++) {
        const res = await fetch(
          `${server.url}/api/tickets/${data.id}/attachments/${data.attachments[i]!.id}/download`,
          { headers: user.auth },
        );
        expect(res.status).toBe(200);
        expect(Buffer.from(await res.arrayBuffer()).equals(files[i]!.content)).toBe(true);
      }
    } finally {
      await server.kill();
      await db.destroy();
      await s3.close();
    }
  }, 120_000);
});

describe('storage:sweep over the bucket', () => {
  let s3: TestS3;
  let t: TestApp;
  beforeAll(async () => {
    s3 = await startS3('sweep-bucket', 'tenant-a');
    t = await buildTestApp({ config: s3.config });
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
  });

  it('prints each object removed and leaves young ones; --dry-run removes nothing', async () => {
    const orphan = `tenant-a/12/12${'a'.repeat(30)}`;
    const young = `tenant-a/34/34${'b'.repeat(30)}`;
    s3.plant(orphan, 'twelve bytes', 2 * HOUR);
    s3.plant(young, 'young', 10 * 60_000);
    const env = { ...t.env, ...s3.env };

    const dry = await runCli(['storage:sweep', '--dry-run'], env);
    expect(dry.stderr).toBe('');
    expect(dry.stdout.trim().split('\n').at(-1)).toBe(
      'storage:sweep: would remove 1 file (12 bytes); 2 scanned, 1 younger than 60 min left alone',
    );
    expect(s3.objects()).toEqual([orphan, young]);

    const res = await runCli(['storage:sweep'], env);
    expect(res.code).toBe(0);
    const lines = res.stdout.trim().split('\n');
    expect(lines[0]).toMatch(
      new RegExp(`^removed ${orphan} \\(unreferenced, 12 bytes, last written \\d{4}-[^)]+Z\\)$`),
    );
    expect(lines[1]).toBe('storage:sweep: removed 1 file (12 bytes); 2 scanned, 1 younger than 60 min left alone');
    expect(s3.objects()).toEqual([young]);
  }, 60_000);

  it('is swept by an instance when it starts, as the disk is', async () => {
    const orphan = `tenant-a/56/56${'c'.repeat(30)}`;
    s3.plant(orphan, 'left by a crash', 3 * HOUR);
    const instance = await buildTestApp({ config: s3.config, startWorkers: true });
    try {
      await waitFor('the startup sweep', async () => !s3.objects().includes(orphan));
      expect(s3.objects()).toContain(`tenant-a/34/34${'b'.repeat(30)}`);
    } finally {
      await instance.close();
    }
  });
});

describe('storage configuration', () => {
  it.each([
    [{ STORAGE_URL: 'ftp://files.example.com/attachments' }, 'STORAGE_URL must be s3://bucket or s3://bucket/prefix'],
    [{ STORAGE_URL: 's3://Bad_Bucket/x' }, 'STORAGE_URL must be s3://bucket or s3://bucket/prefix'],
    [{ STORAGE_URL: 's3://bucket/a/../b' }, 'STORAGE_URL must be s3://bucket or s3://bucket/prefix'],
    [{ STORAGE_URL: 's3://bucket//double' }, 'STORAGE_URL must be s3://bucket or s3://bucket/prefix'],
    [
      { STORAGE_URL: 's3://bucket', S3_ENDPOINT: 'minio:9000' },
      'S3_ENDPOINT must be an http:// or https:// URL of an S3-protocol server',
    ],
    [{ STORAGE_URL: 's3://bucket', S3_REGION: 'EU West' }, 'S3_REGION must be a region name such as us-east-1'],
    [{ S3_ENDPOINT: 'http://127.0.0.1:9000' }, 'S3_ENDPOINT is set but STORAGE_URL is not'],
  ])('%o is refused with a message naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('accepts a bucket with or without a prefix, and defaults to the disk and us-east-1', () => {
    expect(loadConfig({})).toMatchObject({ STORAGE_URL: undefined, S3_ENDPOINT: undefined, S3_REGION: 'us-east-1' });
    const config = loadConfig({
      STORAGE_URL: 's3://platform-files.eu/prod/attachments/',
      S3_ENDPOINT: 'https://s3.example.com',
      S3_REGION: 'eu-central-1',
    });
    expect(config).toMatchObject({
      STORAGE_URL: 's3://platform-files.eu/prod/attachments/',
      S3_ENDPOINT: 'https://s3.example.com',
      S3_REGION: 'eu-central-1',
    });
    expect(s3Location(config.STORAGE_URL!)).toEqual({ bucket: 'platform-files.eu', prefix: 'prod/attachments' });
    expect(s3Location('s3://bucket')).toEqual({ bucket: 'bucket', prefix: '' });
  });
});
