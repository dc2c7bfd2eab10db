// The model server misbehaving, against the real server process: a server that never answers, one
// that sends its headers and then stalls mid-body, one that is down. The chat answers 500 in the
// spec's body within LLM_TIMEOUT_MS (plus scheduling slack), and other endpoints keep answering
// while chats wait. (Error answers and plain slowness are covered in test/assistant/llm-provider.)
import type http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../harness/ports.js';
import { launchServer, type ServerProcess } from '../../harness/server.js';
import { userWithToken } from '../helpers/factories.js';
import { LoopbackModelServer } from '../helpers/model-server.js';
import { createTestDatabase, type TestDatabase } from '../helpers/app.js';

type Mode = 'hang' | 'stall-body';

class MisbehavingModel extends LoopbackModelServer {
  mode: Mode = 'hang';
  requests = 0;
  protected handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    req.resume();
    this.requests++;
    if (this.mode === 'stall-body') {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '400' });
      res.write(
        '{"id":"chatcmpl-1","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"Half an ans',
      );
    }
    // 'hang': nothing at all.
  }
}

// Long enough that the other requests comfortably finish while the chats wait, even on a busy CI machine.
const TIMEOUT_MS = 4_000;
// Generous slack for a loaded machine: the point is "bounded by the timeout", not a speed figure.
const BOUND_MS = TIMEOUT_MS + 6_000;
const TIMEOUT_BODY = {
  success: false,
  message: 'The assistant took too long to answer. Your message is saved; please try again.',
  error: 'llm_timeout',
};

describe('LLM provider slow or failing (real server process)', () => {
  const model = new MisbehavingModel();
  let t: TestDatabase;
  let server: ServerProcess | undefined;
  let user: Awaited<ReturnType<typeof userWithToken>>;

  beforeAll(async () => {
    const baseUrl = await model.start();
    t = await createTestDatabase();
    server = await launchServer({
      env: { ...t.env, LLM_BASE_URL: baseUrl, LLM_MODEL: 'test-model', LLM_TIMEOUT_MS: String(TIMEOUT_MS) },
      timeoutMs: 120_000,
    });
    user = await userWithToken(t.db);
    // Warm the routes the test compares against the chats (first calls compile schemas).
    for (const url of ['/api/tickets', '/api/provinces']) await fetch(`${server.url}${url}`, { headers: user.auth });
  }, 180_000);
  afterAll(async () => {
    await server?.kill();
    await model.stop();
    await t?.destroy();
  });

  const chat = async (message: string) => {
    const started = Date.now();
    const res = await fetch(`${server!.url}/api/assistant/chat`, {
      method: 'POST',
      headers: { ...user.auth, 'content-type': 'application/json' },
      body: JSON.stringify({ message }),
    });
    return { status: res.status, body: await res.json(), ms: Date.now() - started, at: Date.now() };
  };

  it('answers 500 llm_timeout within the timeout when the model server stalls in the middle of its answer', async () => {
    model.mode = 'stall-body';
    const res = await chat('Half an answer then silence');
    expect(res.status).toBe(500);
    expect(res.body).toEqual(TIMEOUT_BODY);
    expect(res.ms).toBeLessThan(BOUND_MS);
  }, 60_000);

  it('keeps other endpoints answering while chats wait on a model server that never answers', async () => {
    model.mode = 'hang';
    const before = model.requests;
    const chats = [1, 2, 3, 4].map((i) => chat(`Waiting question ${i}`));
    // Wait until the model server holds all four requests: the chats are now waiting on it.
    for (let i = 0; i < 200 && model.requests < before + 4; i++) await new Promise((r) => setTimeout(r, 25));
    expect(model.requests).toBe(before + 4);

    const others = await Promise.all([
      fetch(`${server!.url}/api/tickets`, { headers: user.auth }).then(async (r) => ({
        status: r.status,
        body: await r.json(),
        at: Date.now(),
      })),
      fetch(`${server!.url}/api/provinces`).then(async (r) => ({
        status: r.status,
        body: await r.json(),
        at: Date.now(),
      })),
      fetch(`${server!.url}/api/tickets`, {
        method: 'POST',
        headers: { ...user.auth, 'content-type': 'application/json' },
        body: JSON.stringify({ subject: 'Meanwhile', message: 'A ticket while the assistant waits.' }),
      }).then(async (r) => ({ status: r.status, body: await r.json(), at: Date.now() })),
      fetch(`${server!.url}/health`).then(async (r) => ({ status: r.status, body: await r.json(), at: Date.now() })),
    ]);
    expect(others.map((o) => o.status)).toEqual([200, 200, 201, 200]);
    expect((others[1]!.body as { data: unknown[] }).data.length).toBeGreaterThan(0);

    const answers = await Promise.all(chats);
    for (const answer of answers) {
      expect(answer.status).toBe(500);
      expect(answer.body).toEqual(TIMEOUT_BODY);
      expect(answer.ms).toBeLessThan(BOUND_MS);
    }
    // The other requests were answered while every chat was still waiting, not after.
    expect(Math.max(...others.map((o) => o.at))).toBeLessThan(Math.min(...answers.map((a) => a.at)));
  }, 60_000);

  it('answers 500 llm_error when the model server is down, while tickets keep working', async () => {
    const port = await freePort();
    const down = await launchServer({
      env: {
        ...t.env,
        LLM_BASE_URL: `http://127.0.0.1:${port}/v1`,
        LLM_MODEL: 'test-model',
        LLM_TIMEOUT_MS: String(TIMEOUT_MS),
      },
      timeoutMs: 120_000,
    });
    try {
      const res = await fetch(`${down.url}/api/assistant/chat`, {
        method: 'POST',
        headers: { ...user.auth, 'content-type': 'application/json' },
        body: JSON.stringify({ message: 'Anyone there?' }),
      });
      expect(res.status).toBe(500);
      expect(await res.json()).toEqual({ success: false, message: expect.any(String), error: 'llm_error' });
      const list = await fetch(`${down.url}/api/tickets`, { headers: user.auth });
      expect(list.status).toBe(200);
    } finally {
      await down.kill();
    }
  }, 180_000);
});
