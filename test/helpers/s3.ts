// An S3-protocol server for tests: s3rver on a free loopback port with a temporary folder, one
// bucket, and what tests need around it (the config pointing the app at it, the objects in the
// bucket, aging an object, stopping and starting it again on the same port).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import type { Config } from '../../src/config.js';
import { filesUnder } from '../../harness/files.js';

// s3rver's fixed key pair; the app finds it through the SDK's default chain, as it would real keys.
// The SDK's notice on Node 20 that its releases after January 2027 need Node 22 (README, Operating
// it) is turned off too: it would repeat in every test file's output and every child's stderr.
const CREDENTIALS = {
  AWS_ACCESS_KEY_ID: 'S3RVER',
  AWS_SECRET_ACCESS_KEY: 'S3RVER',
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
};
Object.assign(process.env, CREDENTIALS);

export interface TestS3 {
  endpoint: string;
  bucket: string;
  prefix: string;
  /** STORAGE_URL and S3_ENDPOINT for this server. */
  config: Pick<Config, 'STORAGE_URL' | 'S3_ENDPOINT'>;
  /** Environment for a child process (CLI, server) using this bucket. */
  env: Record<string, string>;
  /** Keys of every object in the bucket, sorted. */
  objects(): string[];
  /** Sets an object's LastModified this far in the past (s3rver reports its file's time). */
  age(objectKey: string, ageMs: number): void;
  /** Writes an object straight into the bucket's folder, bypassing the app. */
  plant(objectKey: string, content: string, ageMs?: number): void;
  stop(): Promise<void>;
  /** Starts again on the same port, with the same objects. */
  start(): Promise<void>;
  close(): Promise<void>;
}

const SUFFIX = '._S3rver_object';

export async function startS3(bucket = 'attachments', prefix = 'platform/test'): Promise<TestS3> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'platform-s3-'));
  const options = { address: '127.0.0.1', directory, silent: true, configureBuckets: [{ name: bucket, configs: [] }] };
  let server = new S3rver({ ...options, port: 0 });
  const { port } = await server.run();
  let running = true;
  const endpoint = `http://127.0.0.1:${port}`;
  const bucketDir = path.join(directory, bucket);
  const objectFile = (key: string) => path.join(bucketDir, `${key}${SUFFIX}`);
  const setAge = (file: string, ageMs: number) => {
    const when = new Date(Date.now() - ageMs);
    fs.utimesSync(file, when, when);
  };
  const storageUrl = `s3://${bucket}/${prefix}`;
  const stop = async () => {
    if (running) await server.close();
    running = false;
  };
  return {
    endpoint,
    bucket,
    prefix,
    config: { STORAGE_URL: storageUrl, S3_ENDPOINT: endpoint },
    env: { STORAGE_URL: storageUrl, S3_ENDPOINT: endpoint, ...CREDENTIALS },
    objects: () =>
      filesUnder(bucketDir, { keep: (name) => name.endsWith(SUFFIX), relative: true })
        .map((f) => f.slice(0, -SUFFIX.length).split(path.sep).join('/'))
        .sort(),
    age: (key, ageMs) => setAge(objectFile(key), ageMs),
    plant(key, content, ageMs = 0) {
      fs.mkdirSync(path.dirname(objectFile(key)), { recursive: true });
      fs.writeFileSync(objectFile(key), content);
      setAge(objectFile(key), ageMs);
    },
    stop,
    async start() {
      if (running) return;
      server = new S3rver({ ...options, port });
      await server.run();
      running = true;
    },
    async close() {
      await stop();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
