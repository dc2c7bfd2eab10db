// The geo answers sent before routing (src/http/prepared-answers.ts) over a real socket: the same
// status, headers in the same order and bytes as the Fastify route sends for the same resource
// (reached through a spelling the prepared path leaves alone: a trailing slash), the 304, the
// request-id echo, the request metrics; and every request the prepared path must not take still
// reaches Fastify and gets its usual answer.
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { exchange, type RawAnswer, type RawRequest } from '../helpers/raw-http.js';

const PER_RESPONSE = new Set(['date', 'x-request-id']);
const METRICS_TOKEN = 'prepared-answers-metrics-token';

interface Served {
  app: TestApp;
  port: number;
  /** How many requests the prepared path answered so far. */
  served(): number;
}

async function serve(config: Parameters<typeof buildTestApp>[0] = {}): Promise<Served> {
  const app = await buildTestApp({ loadGeoData: true, ...config });
  const answers = app.app.preparedAnswers;
  const answer = answers.answer.bind(answers);
  let count = 0;
  answers.answer = (req, res) => {
    const taken = answer(req, res);
    if (taken) count++;
    return taken;
  };
  await app.app.listen({ port: 0, host: '127.0.0.1' });
  return { app, port: (app.app.server.address() as AddressInfo).port, served: () => count };
}

async function one(port: number, request: RawRequest): Promise<RawAnswer> {
  const result = await exchange(port, [request]);
  expect(result.answers, `${request.method} ${request.url}`).toHaveLength(1);
  return result.answers[0]!;
}

/** Status, header names in order, every header value but the per-response ones, and the body. */
function shape(answer: RawAnswer) {
  const names = Object.keys(answer.headers);
  return {
    status: answer.statusCode,
    names,
    values: names.filter((n) => !PER_RESPONSE.has(n)).map((n) => `${n}: ${answer.headers[n]}`),
    body: answer.body,
  };
}

describe('prepared geo answers', () => {
  let s: Served;
  beforeAll(async () => {
    s = await serve({ config: { METRICS_TOKEN } });
  });
  afterAll(() => s.app.close());

  const paths = [
    '/api/provinces',
    '/api/geographic/continents',
    '/api/geographic/section/785/children',
    '/api/counties/8',
    '/api/geographic/province/8/children',
  ];

  it('answer 200 exactly as the Fastify route does, header order included', async () => {
    for (const path of paths) {
      const before = s.served();
      const prepared = await one(s.port, { method: 'GET', url: path });
      expect(s.served(), path).toBe(before + 1);
      const routed = await one(s.port, { method: 'GET', url: `${path}/` });
      expect(s.served(), `${path}/`).toBe(before + 1);
      expect(prepared.statusCode, path).toBe(200);
      expect(JSON.parse(prepared.body), path).toBeTruthy();
      expect(shape(prepared), path).toEqual(shape(routed));
      expect(prepared.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('answer If-None-Match by 304 as the route does (strong, weak, a list), and a stale tag by 200', async () => {
    for (const path of paths) {
      const etag = (await one(s.port, { method: 'GET', url: path })).headers.etag!;
      for (const header of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
        const before = s.served();
        const prepared = await one(s.port, { method: 'GET', url: path, headers: { 'if-none-match': header } });
        const routed = await one(s.port, { method: 'GET', url: `${path}/`, headers: { 'if-none-match': header } });
        expect(s.served()).toBe(before + 1);
        expect(prepared.statusCode, `${path} ${header}`).toBe(304);
        expect(prepared.body).toBe('');
        expect(shape(prepared)).toEqual(shape(routed));
      }
      const stale = await one(s.port, { method: 'GET', url: path, headers: { 'if-none-match': '"stale"' } });
      expect(stale.statusCode).toBe(200);
      expect(stale.headers.etag).toBe(etag);
    }
  });

  it('echo a sane X-Request-Id and replace an insane one', async () => {
    expect(
      (await one(s.port, { method: 'GET', url: '/api/provinces', headers: { 'x-request-id': 'trace-42.a:b' } }))
        .headers['x-request-id'],
    ).toBe('trace-42.a:b');
    expect(
      (await one(s.port, { method: 'GET', url: '/api/provinces', headers: { 'x-request-id': 'bad id!' } })).headers[
        'x-request-id'
      ],
    ).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('count each answer in the request-duration histogram under the route pattern', async () => {
    const count = async () => {
      const res = await s.app.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      const line = res.body
        .split('\n')
        .find((l) =>
          l.startsWith(
            'http_request_duration_seconds_count{route="/api/geographic/:level/:parentId/children",method="GET",status_class="2xx"}',
          ),
        );
      return Number(line?.split(' ').pop() ?? 0);
    };
    const before = await count();
    const served = s.served();
    await exchange(
      s.port,
      [1, 2, 3].map(() => ({ method: 'GET', url: '/api/geographic/section/785/children' })),
    );
    expect(s.served()).toBe(served + 3);
    expect(await count()).toBe(before + 3);
  });

  it('leave to Fastify what they must not take, which still answers as usual', async () => {
    const cases: Array<[RawRequest, number]> = [
      [{ method: 'GET', url: '/api/provinces?lang=en' }, 200],
      [{ method: 'HEAD', url: '/api/provinces' }, 200],
      [{ method: 'GET', url: '/api/provinces', headers: { 'x-forwarded-proto': 'https' } }, 200],
      [{ method: 'GET', url: '/api/provinces', body: '{}', headers: { 'content-type': 'application/json' } }, 200],
      [{ method: 'GET', url: '/api/geographic/SECTION/785/children' }, 200],
      [{ method: 'GET', url: '/api/geographic/section/%37%38%35/children' }, 200],
      [{ method: 'GET', url: '/api/counties/99999' }, 200],
      [{ method: 'GET', url: '/api/counties/abc' }, 422],
      [{ method: 'GET', url: '/api/geographic/planet/1/children' }, 422],
      [{ method: 'POST', url: '/api/provinces', body: '{}', headers: { 'content-type': 'application/json' } }, 405],
    ];
    for (const [request, status] of cases) {
      const before = s.served();
      const answer = await one(s.port, request);
      expect(answer.statusCode, `${request.method} ${request.url}`).toBe(status);
      expect(s.served(), `${request.method} ${request.url}`).toBe(before);
    }
    // The same bytes whichever path answers the spellings of one list (0785 is read as 785 by both).
    const plain = await one(s.port, { method: 'GET', url: '/api/geographic/section/785/children' });
    for (const url of [
      '/api/geographic/SECTION/785/children',
      '/api/geographic/section/%37%38%35/children',
      '/api/geographic/section/0785/children',
    ]) {
      expect((await one(s.port, { method: 'GET', url })).body, url).toBe(plain.body);
    }
  });

  it('stop once the app starts closing, so Fastify answers (503 while it drains)', async () => {
    const other = await serve();
    try {
      other.app.app.preparedAnswers.close();
      const answer = await one(other.port, { method: 'GET', url: '/api/provinces' });
      expect(answer.statusCode).toBe(200);
      expect(other.served()).toBe(0);
    } finally {
      await other.app.close();
    }
  });
});

describe('prepared geo answers with CORS origins configured', () => {
  it('are not used: every geo request goes through the CORS hook', async () => {
    const s = await serve({ config: { CORS_ORIGINS: ['https://app.example.com'] } });
    try {
      const answer = await one(s.port, {
        method: 'GET',
        url: '/api/provinces',
        headers: { origin: 'https://app.example.com' },
      });
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['access-control-allow-origin']).toBe('https://app.example.com');
      expect(s.served()).toBe(0);
    } finally {
      await s.app.close();
    }
  });
});
