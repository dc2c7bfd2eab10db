// POST /api/assistant/chat with Accept: text/event-stream, over real sockets: the production server
// as a child process (offline provider, and a second one pointed at a model server on loopback
// that speaks the streaming chat-completions protocol), a real SSE client, on the database under
// test. Every stream is checked against the OpenAPI document.
import type http from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Contract } from '../helpers/contract.js';
import { createTestDatabase, type TestDatabase } from '../helpers/app.js';
import { userWithToken } from '../helpers/factories.js';
import { LoopbackModelServer } from '../helpers/model-server.js';
import { launchServer, type ServerProcess } from '../../harness/server.js';
import { SseClient } from '../helpers/sse.js';

type Mode = 'ok' | 'error' | 'stall' | 'slow';
const PIECES = ['Refunds ', 'arrive ', 'within ', 'three to seven ', 'working days.'];

/** Answers JSON to a plain request and an event stream of PIECES to stream: true, as the mode says. */
class StreamingModelServer extends LoopbackModelServer {
  mode: Mode = 'ok';
  readonly bodies: Array<{ stream?: boolean }> = [];
  /** When the last request's connection closed (ms since epoch), and whether it had been answered fully. */
  closedAt: number | undefined;
  completed = false;

  protected handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const body = JSON.parse(raw) as { stream?: boolean };
      this.bodies.push(body);
      this.closedAt = undefined;
      this.completed = false;
      res.on('close', () => (this.closedAt = Date.now()));
      if (this.mode === 'error') {
        res
          .writeHead(500, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: 'model crashed', type: 'server_error' } }));
        return;
      }
      if (!body.stream) {
        const message = { role: 'assistant', content: PIECES.join('') };
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            id: 'c1',
            object: 'chat.completion',
            created: 1,
            model: 'm',
            choices: [{ index: 0, finish_reason: 'stop', message }],
          }),
        );
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = (content: string) =>
        `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`;
      const pieces = this.mode === 'slow' ? Array.from({ length: 40 }, (_, i) => `word${i} `) : PIECES;
      let i = 0;
      const step = () => {
        if (res.destroyed) return;
        if (this.mode === 'stall' && i === 1) return; // one piece, then nothing
        if (i < pieces.length) {
          res.write(chunk(pieces[i++]!));
          setTimeout(step, this.mode === 'slow' ? 150 : 5);
          return;
        }
        this.completed = true;
        res.end('data: [DONE]\n\n');
      };
      step();
    });
  }
}

const model = new StreamingModelServer();
let database: TestDatabase;
let offline: ServerProcess;
let withModel: ServerProcess;
let contract: Contract;
let user: Record<string, string>;
let other: Record<string, string>;

async function account(): Promise<Record<string, string>> {
  return (await userWithToken(database.db)).auth;
}

function chat(base: string, auth: Record<string, string>, body: unknown, stream = true): Promise<SseClient> {
  return SseClient.open(`${base}/api/assistant/chat`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json', accept: stream ? 'text/event-stream' : 'application/json' },
    body: JSON.stringify(body),
  });
}

async function plain(
  base: string,
  auth: Record<string, string>,
  body: unknown,
  accept = 'application/json',
): Promise<{ status: number; type: string | null; body: any }> {
  const res = await fetch(`${base}/api/assistant/chat`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json', accept },
    body: JSON.stringify(body),
  });
  return { status: res.status, type: res.headers.get('content-type'), body: await res.json() };
}

function expectDocumented(client: SseClient): void {
  expect(contract.streamProblem('POST', '/api/assistant/chat', client)).toBeUndefined();
}

/** The body without what differs between two calls (ids and timing). */
const comparable = (body: Record<string, unknown>) => ({
  ...body,
  conversation_id: 0,
  request_id: '',
  response_time_ms: 0,
});

async function conversation(base: string, id: number): Promise<any> {
  const body = (await (await fetch(`${base}/api/assistant/conversations/${id}`, { headers: user })).json()) as {
    conversation: unknown;
  };
  return body.conversation;
}

beforeAll(async () => {
  database = await createTestDatabase();
  user = await account();
  other = await account();
  const env = { ...database.env, RATE_LIMIT_PER_MINUTE: '0' };
  [offline, withModel] = await Promise.all([
    launchServer({ entry: 'built', env }),
    launchServer({
      entry: 'built',
      env: { ...env, LLM_BASE_URL: await model.start(), LLM_MODEL: 'm', LLM_TIMEOUT_MS: '1500' },
    }),
  ]);
  contract = new Contract((await (await fetch(`${offline.url}/openapi.json`)).json()) as never, false);
}, 120_000);

afterAll(async () => {
  for (const s of [offline, withModel]) {
    if (s && s.child.exitCode === null) {
      s.child.kill('SIGTERM');
      await s.exited;
    }
  }
  await model.stop();
  await database.destroy();
});

beforeEach(() => {
  model.mode = 'ok';
});

describe('streamed chat, offline provider', () => {
  it('sends start, the answer in deltas, and done with the body the plain call answers', async () => {
    const question = { message: 'How do I request a refund?' };
    const client = await chat(offline.url, user, question);
    expect(client.status).toBe(200);
    expect(client.response.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    await client.finished();
    const names = client.events.map((e) => e.event);
    expect(names[0]).toBe('start');
    expect(names.at(-1)).toBe('done');
    expect(names.filter((n) => n === 'delta').length).toBeGreaterThanOrEqual(2);
    const start = client.events[0]!.json;
    const done = client.events.at(-1)!.json;
    expect(start).toEqual({
      conversation_id: done.conversation_id,
      request_id: client.response.headers['x-request-id'],
      agent: done.agent,
      agent_name: done.agent_name,
      agent_icon: done.agent_icon,
    });
    expect(
      client.events
        .filter((e) => e.event === 'delta')
        .map((e) => e.json.text)
        .join(''),
    ).toBe(done.message);
    expect(done.request_id).toBe(client.response.headers['x-request-id']);
    const json = await plain(offline.url, user, question);
    expect(json.status).toBe(200);
    expect(comparable(done)).toEqual(comparable(json.body));
    expect(Object.keys(done)).toEqual(Object.keys(json.body));
    expectDocumented(client);
    const saved = await conversation(offline.url, done.conversation_id);
    expect(saved.messages.map((m: any) => [m.role, m.content])).toEqual([
      ['user', question.message],
      ['assistant', done.message],
    ]);
  });

  it('keeps the JSON answers of errors found before the answer starts', async () => {
    const { body } = await plain(offline.url, other, { message: 'Hello' });
    const foreign = body.conversation_id as number;
    const cases: Array<[Record<string, string>, unknown, number]> = [
      [{}, { message: 'Hello' }, 401],
      [user, { message: '' }, 422],
      [user, { message: 'Hello', conversation_id: 99_999_999 }, 404],
      [user, { message: 'Hello', conversation_id: foreign }, 403],
    ];
    for (const [auth, request, status] of cases) {
      const streamed = await plain(offline.url, auth, request, 'text/event-stream');
      const unstreamed = await plain(offline.url, auth, request);
      expect(streamed.status).toBe(status);
      expect(streamed.type).toBe('application/json; charset=utf-8');
      expect(streamed.body).toEqual(unstreamed.body);
    }
  });
});

describe('streamed chat, model server', () => {
  it("relays the model's own stream as deltas; done equals the plain call's body", async () => {
    const client = await chat(withModel.url, user, { message: 'When do refunds arrive?' });
    await client.finished();
    expect(model.bodies.at(-1)!.stream).toBe(true);
    expect(client.events.filter((e) => e.event === 'delta').map((e) => e.json.text)).toEqual(PIECES);
    const done = client.events.at(-1)!;
    expect(done.event).toBe('done');
    const json = await plain(withModel.url, user, { message: 'When do refunds arrive?' });
    expect(model.bodies.at(-1)!.stream).toBeFalsy();
    expect(comparable(done.json)).toEqual(comparable(json.body));
    expectDocumented(client);
  });

  it('sends an error event when the model fails after start, and keeps the user message', async () => {
    model.mode = 'error';
    const client = await chat(withModel.url, user, { message: 'Is the model up?' });
    await client.finished();
    expect(client.events.map((e) => e.event)).toEqual(['start', 'error']);
    expect(client.events[1]!.json).toEqual({
      success: false,
      message: 'The assistant could not answer right now. Your message is saved; please try again.',
      error: 'llm_error',
    });
    expectDocumented(client);
    const saved = await conversation(withModel.url, client.events[0]!.json.conversation_id);
    expect(saved.messages.map((m: any) => m.role)).toEqual(['user']);
  });

  it('sends llm_timeout when the model stalls mid-answer', async () => {
    model.mode = 'stall';
    const client = await chat(withModel.url, user, { message: 'Will this stall?' });
    await client.finished(8_000);
    expect(client.events.map((e) => e.event)).toEqual(['start', 'delta', 'error']);
    expect(client.events[2]!.json.error).toBe('llm_timeout');
  });

  it('aborts the model call when the client leaves, before the model would have ended, and saves the partial answer as interrupted', async () => {
    model.mode = 'slow';
    const client = await chat(withModel.url, user, { message: 'Tell me a long story' });
    const start = await client.next('start');
    await client.next('delta');
    await client.next('delta', 3_000);
    const received = client.events
      .filter((e) => e.event === 'delta')
      .map((e) => e.json.text)
      .join('');
    client.close();
    const deadline = Date.now() + 3_000;
    while (model.closedAt === undefined && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    // The slow model needs about 6 s for the whole answer: closed within the 3 s above and not
    // completed, the call was aborted because the client left, not ended by the model.
    expect(model.closedAt).toBeDefined();
    expect(model.completed).toBe(false);
    let saved: any;
    for (let i = 0; i < 50; i++) {
      saved = await conversation(withModel.url, start.json.conversation_id);
      if (saved.messages.length === 2) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const answer = saved.messages[1];
    expect(answer.role).toBe('assistant');
    expect(answer.interrupted).toBe(true);
    expect(answer.content.startsWith(received)).toBe(true);
    expect(answer.content.split(' ').length).toBeLessThan(40);
    expect(saved.messages[0]).not.toHaveProperty('interrupted');
  });
});
