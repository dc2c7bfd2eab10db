// The geo routes take the hot path (config.hotPath, src/http/hot-path.ts): no request log lines
// and no CORS work when no origin is configured. What a client receives must not change: these
// tests pin the exact header set of a 200 and a 304, the ETag round trip, and CORS headers when
// origins are configured; and they show the request lines are still written for other routes.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { securityHeaders } from '../../src/http/security-headers.js';
import { buildTestApp, createTestDatabase, type TestApp, type TestDatabase } from '../helpers/app.js';

const SECURITY = securityHeaders();
const PER_RESPONSE = new Set(['date', 'connection', 'content-length', 'x-request-id']);

function fixedHeaders(headers: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers)
      .filter(([k]) => !PER_RESPONSE.has(k))
      .map(([k, v]) => [k, String(v)]),
  );
}

describe('geo routes on the hot path: what the client receives', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ loadGeoData: true });
  });
  afterAll(() => t.close());

  it('answers 200 with exactly the security headers, cache-control, etag and content type', async () => {
    for (const url of ['/api/provinces', '/api/geographic/continents', '/api/geographic/section/785/children']) {
      const res = await t.app.inject(url);
      expect(res.statusCode, url).toBe(200);
      const etag = String(res.headers.etag);
      expect(etag).toMatch(/^"[^"]+"$/);
      expect(fixedHeaders(res.headers), url).toEqual({
        ...SECURITY,
        'cache-control': 'public, max-age=3600',
        etag,
        'content-type': 'application/json; charset=utf-8',
      });
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
      expect(JSON.stringify(res.json()).length, url).toBeGreaterThan(20);
    }
  });

  it('answers If-None-Match with the ETag (and W/ and a list) by 304 without a body, same caching headers', async () => {
    const first = await t.app.inject('/api/provinces');
    const etag = String(first.headers.etag);
    for (const header of [etag, `W/${etag}`, `"other", ${etag}`]) {
      const res = await t.app.inject({ url: '/api/provinces', headers: { 'if-none-match': header } });
      expect(res.statusCode, header).toBe(304);
      expect(res.rawPayload.length).toBe(0);
      expect(fixedHeaders(res.headers)).toEqual({ ...SECURITY, 'cache-control': 'public, max-age=3600', etag });
    }
    const stale = await t.app.inject({ url: '/api/provinces', headers: { 'if-none-match': '"stale"' } });
    expect(stale.statusCode).toBe(200);
    expect(stale.body).toBe(first.body);
  });

  it('still answers a bad level with the 422 body', async () => {
    const res = await t.app.inject('/api/geographic/planet/1/children');
    expect(res.statusCode).toBe(422);
    expect(fixedHeaders(res.headers)).toMatchObject(SECURITY);
  });
});

describe('geo routes with CORS origins configured', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ config: { CORS_ORIGINS: ['https://app.example.com'] } });
  });
  afterAll(() => t.close());

  it('send the CORS headers like every other route', async () => {
    const headers = { origin: 'https://app.example.com' };
    const geo = await t.app.inject({ url: '/api/provinces', headers });
    const health = await t.app.inject({ url: '/health', headers });
    expect(geo.headers['access-control-allow-origin']).toBe('https://app.example.com');
    expect(geo.headers['access-control-expose-headers']).toBe(health.headers['access-control-expose-headers']);
    expect(geo.headers.vary).toBe(health.headers.vary);
  });
});

describe('request logging at the default level', () => {
  let database: TestDatabase;
  const lines: Array<{ msg?: string; reqId?: string; req?: { url?: string } }> = [];
  let app: Awaited<ReturnType<typeof buildApp>>;
  beforeAll(async () => {
    database = await createTestDatabase({ RATE_LIMIT_PER_MINUTE: 0 });
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    app = await buildApp({
      config: database.config,
      database: database.handle,
      logger: { level: 'info', stream },
      loadGeoData: false,
      startWorkers: false,
    });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await database.destroy();
  });

  it('writes no request lines for geo routes, and both lines with the request id for others', async () => {
    lines.length = 0;
    await app.inject('/api/provinces');
    await app.inject('/api/geographic/continents');
    expect(lines.filter((l) => l.msg === 'incoming request' || l.msg === 'request completed')).toEqual([]);
    // Any route that is neither hot-path nor a health probe (probes log at warn only).
    const welcome = await app.inject('/api/assistant/welcome');
    const id = welcome.headers['x-request-id'];
    expect(lines.filter((l) => l.reqId === id).map((l) => l.msg)).toEqual(['incoming request', 'request completed']);
  });
});
