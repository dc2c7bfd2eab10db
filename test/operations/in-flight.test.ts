// http_requests_in_flight over real sockets: the production server as a child process on the
// database under test, scraped through GET /metrics after requests refused before their route runs
// (401, 403, 404, 405, 413, 415, 429, 422), failed (500 from a model server that fails, 503 from a
// storage that is down), cut off by the client mid-body and mid-answer, and streamed (the
// notification stream, the chat stream). After each, the gauge must come back to where it was:
// before the fix every refused request took one off for good. The same scrape passes
// `promtool check metrics` and carries the model provider's series before any model call.
import { spawnSync } from 'node:child_process';
import type http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/app.js';
import { userWithToken } from '../helpers/factories.js';
import { LoopbackModelServer } from '../helpers/model-server.js';
import { multipart } from '../helpers/multipart.js';
import { SseClient } from '../helpers/sse.js';
import { PDF } from '../tickets/helpers.js';
import { freePort } from '../../harness/ports.js';
import { launchServer, type ServerProcess } from '../../harness/server.js';
import { waitFor } from '../../harness/wait.js';

const TOKEN = 'in-flight-metrics-token-0123';
const BODY_LIMIT = 4096;
const PER_MINUTE = 3;

/** Fails every plain chat call with a 500; streams a few pieces slowly to a streaming one. */
class FlakyModelServer extends LoopbackModelServer {
  protected handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const body = JSON.parse(raw) as { stream?: boolean };
      if (!body.stream) {
        res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"model crashed"}}');
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      let i = 0;
      const step = () => {
        if (res.destroyed) return;
        if (i++ < 20) {
          const delta = { choices: [{ index: 0, delta: { content: `word${i} ` }, finish_reason: null }] };
          res.write(
            `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', ...delta })}\n\n`,
          );
          setTimeout(step, 100);
          return;
        }
        res.end('data: [DONE]\n\n');
      };
      step();
    });
  }
}

const model = new FlakyModelServer();
let database: TestDatabase;
let server: ServerProcess;

async function scrape(): Promise<string> {
  const res = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  if (res.status !== 200) throw new Error(`GET /metrics answered ${res.status}`);
  return res.text();
}

async function inFlight(): Promise<number> {
  const text = await scrape();
  const line = text.split('\n').find((l) => l.startsWith('http_requests_in_flight '));
  if (!line) throw new Error(`no http_requests_in_flight in ${text.slice(0, 200)}`);
  return Number(line.split(' ')[1]);
}

/** Resolves once the gauge reads `value` again (a response's close event may follow its last byte). */
async function settlesAt(value: number): Promise<void> {
  let last = Number.NaN;
  await waitFor(
    `http_requests_in_flight back at ${value}`,
    async () => {
      last = await inFlight();
      return last === value;
    },
    5_000,
    25,
  ).catch(() => {
    throw new Error(`http_requests_in_flight stayed at ${last}, expected ${value}`);
  });
}

async function account(options: { admin?: boolean } = {}): Promise<Record<string, string>> {
  return (await userWithToken(database.db, options)).auth;
}

/** Sends one request and reads its status (the body drained, the connection closed after it). */
async function status(path: string, init: RequestInit = {}): Promise<number> {
  const res = await fetch(`${server.url}${path}`, { ...init, headers: { connection: 'close', ...init.headers } });
  await res.arrayBuffer();
  return res.status;
}

beforeAll(async () => {
  database = await createTestDatabase();
  const modelUrl = await model.start();
  // Nothing listens here: the attachment storage is down (503).
  const storagePort = await freePort();
  server = await launchServer({
    entry: 'built',
    env: {
      ...database.env,
      METRICS_TOKEN: TOKEN,
      BODY_LIMIT_BYTES: String(BODY_LIMIT),
      RATE_LIMIT_PER_MINUTE: String(PER_MINUTE),
      LLM_BASE_URL: modelUrl,
      LLM_MODEL: 'test-model',
      LLM_TIMEOUT_MS: '10000',
      STORAGE_URL: 's3://attachments',
      S3_ENDPOINT: `http://127.0.0.1:${storagePort}`,
      S3_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'key',
      AWS_SECRET_ACCESS_KEY: 'secret',
    },
  });
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await model.stop();
  await database?.destroy();
});

/** Debian's prometheus package ships promtool; CI installs it (.ci/run), so only a local run may lack it. */
const promtool = spawnSync('promtool', ['--version'], { stdio: 'ignore' }).status === 0;
const inCi = Boolean(process.env.CI) && process.env.CI !== 'false';

describe('the exposition', () => {
  // Runs before the describe below makes the server's first model calls.
  it('carries the model provider series at zero before the first model call', async () => {
    const text = await scrape();
    for (const outcome of ['ok', 'error']) {
      expect(text).toContain(`assistant_provider_duration_seconds_count{outcome="${outcome}"} 0`);
      expect(text).toContain(`assistant_provider_duration_seconds_bucket{le="+Inf",outcome="${outcome}"} 0`);
    }
    for (const code of ['llm_timeout', 'llm_error'])
      expect(text).toContain(`assistant_provider_errors_total{code="${code}"} 0`);
  });

  it.skipIf(!promtool && !inCi)(
    `passes promtool check metrics${promtool ? '' : ' (SKIPPED: promtool is not installed here; apt-get install prometheus)'}`,
    async () => {
      const text = await scrape();
      const check = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
      expect(check.error, 'promtool must be installed in CI (.ci/run installs the prometheus package)').toBeUndefined();
      expect(`${check.stdout}${check.stderr}`).toBe('');
      expect(check.status).toBe(0);
    },
  );
});

describe('http_requests_in_flight returns to its baseline', () => {
  it('reads 0 when idle: the scrape does not count itself', async () => {
    await settlesAt(0);
  });

  it('after requests refused before their route runs: 401, 403, 404, 405', async () => {
    const member = await account();
    const baseline = await inFlight();
    const refused = [
      [401, '/api/notifications', {}],
      [401, '/api/notifications', { headers: { authorization: 'Bearer not-a-token' } }],
      [403, '/api/admin/tickets', { headers: member }],
      [404, '/api/no-such-route', {}],
      [404, '/api/tickets/999999', { headers: member }],
      [405, '/api/provinces', { method: 'DELETE' }],
    ] as const;
    for (const [expected, path, init] of refused) {
      for (let i = 0; i < 3; i++) expect(await status(path, init as RequestInit)).toBe(expected);
    }
    await settlesAt(baseline);
  });

  it('after bodies refused: 413 over the limit, 415 of an unknown type, 422 that fails validation', async () => {
    const member = await account();
    const baseline = await inFlight();
    const post = (body: string, type: string) =>
      status('/api/tickets', { method: 'POST', headers: { ...member, 'content-type': type }, body });
    expect(await post(JSON.stringify({ subject: 'x'.repeat(BODY_LIMIT), message: 'm' }), 'application/json')).toBe(413);
    expect(await post('subject=a', 'text/x-unknown')).toBe(415);
    expect(await post(JSON.stringify({ subject: '' }), 'application/json')).toBe(422);
    await settlesAt(baseline);
  });

  it('after 429 from the rate limiter', async () => {
    const member = await account();
    const baseline = await inFlight();
    const codes: number[] = [];
    for (let i = 0; i < PER_MINUTE + 2; i++) codes.push(await status('/api/notifications', { headers: member }));
    expect(codes.filter((c) => c === 429)).toHaveLength(2);
    await settlesAt(baseline);
  });

  it('after failures: 500 from the model server, 503 from the attachment storage', async () => {
    const member = await account();
    const baseline = await inFlight();
    const chat = await fetch(`${server.url}/api/assistant/chat`, {
      method: 'POST',
      headers: { ...member, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ message: 'When does my refund arrive?' }),
    });
    expect(chat.status).toBe(500);
    await chat.arrayBuffer();
    const form = multipart(
      [
        ['subject', 'With a file'],
        ['message', 'The storage is down.'],
      ],
      [{ name: 'a.pdf', content: PDF }],
    );
    const upload = await status('/api/tickets', {
      method: 'POST',
      headers: { ...member, ...form.headers },
      body: form.payload,
    });
    expect(upload).toBe(503);
    await settlesAt(baseline);
  });

  it('after clients that leave mid-body and mid-answer', async () => {
    const member = await account();
    const baseline = await inFlight();
    // Headers and half a body, then the connection is gone.
    for (let i = 0; i < 3; i++) {
      const socket = net.connect(server.port, '127.0.0.1');
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.write(
        `POST /api/tickets HTTP/1.1\r\nhost: x\r\nauthorization: ${member.authorization}\r\ncontent-type: application/json\r\ncontent-length: 200\r\n\r\n{"subject":`,
      );
      await waitFor('the request to be counted', async () => (await inFlight()) > baseline, 5_000, 20);
      socket.destroy();
    }
    // A streamed chat answer left after its first piece.
    const stream = await SseClient.open(`${server.url}/api/assistant/chat`, {
      method: 'POST',
      headers: { ...member, 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'Tell me about refunds' }),
    });
    expect(stream.status).toBe(200);
    await stream.next('delta');
    expect(await inFlight()).toBe(baseline + 1);
    stream.close();
    await settlesAt(baseline);
  });

  it('while streams are open and after they end: the notification stream, the chat stream', async () => {
    const member = await account();
    const baseline = await inFlight();
    const notifications = await SseClient.open(`${server.url}/api/notifications/stream`, { headers: member });
    expect(notifications.status).toBe(200);
    await notifications.next('unread_count');
    expect(await inFlight()).toBe(baseline + 1);
    const chat = await SseClient.open(`${server.url}/api/assistant/chat`, {
      method: 'POST',
      headers: { ...member, 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'How do refunds work?' }),
    });
    expect(chat.status).toBe(200);
    await chat.next('delta');
    expect(await inFlight()).toBe(baseline + 2);
    await chat.next('done', 15_000);
    await settlesAt(baseline + 1);
    notifications.close();
    await settlesAt(baseline);
  });
});
