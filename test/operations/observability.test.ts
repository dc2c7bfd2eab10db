// Metrics, probes, request ids and the caller in the log.
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { enqueueMail } from '../../src/mail/outbox.js';
import { buildTestApp, createTestDatabase, testDialect, type TestApp, type TestDatabase } from '../helpers/app.js';
import { userWithToken } from '../helpers/factories.js';

const TOKEN = 'metrics-secret-0123456789';

function metricValue(text: string, line: string): number {
  const found = text.split('\n').find((l) => l.startsWith(`${line} `));
  if (!found) throw new Error(`no metric line ${line}`);
  return Number(found.slice(line.length + 1));
}

describe('GET /metrics without METRICS_TOKEN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('answers 404 as an unknown path does, with or without a bearer', async () => {
    for (const headers of [{}, { authorization: `Bearer ${TOKEN}` }]) {
      const res = await t.app.inject({ method: 'GET', url: '/metrics', headers });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'The route GET /metrics could not be found.' });
    }
  });
});

describe('GET /metrics with METRICS_TOKEN', () => {
  let t: TestApp;
  const scrape = () => t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
  beforeAll(async () => {
    t = await buildTestApp({
      config: { METRICS_TOKEN: TOKEN, RATE_LIMIT_PER_MINUTE: 1 },
      routes: (app) => {
        app.get('/test-exempt/:id', { config: { metrics: false } }, async () => ({ ok: true }));
        app.get('/test-counted/:id', async () => ({ ok: true }));
      },
    });
  });
  afterAll(() => t.close());

  it('refuses a missing or wrong token with 404', async () => {
    for (const authorization of [undefined, `Bearer ${TOKEN}x`, `Bearer wrong`, TOKEN]) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: authorization ? { authorization } : {},
      });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'The route GET /metrics could not be found.' });
    }
  });

  it('serves Prometheus text with process metrics', async () => {
    const res = await scrape();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    expect(res.body).toContain('# TYPE process_resident_memory_bytes gauge');
    expect(res.body).toContain('# TYPE http_requests_in_flight gauge');
    expect(res.body).toContain('# TYPE assistant_provider_duration_seconds histogram');
    // The pool gauges exist on PostgreSQL only (SQLite has one connection and no pool).
    if (testDialect === 'postgres') {
      expect(metricValue(res.body, 'db_pool_waiting')).toBe(0);
      expect(metricValue(res.body, 'db_pool_connections_in_use')).toBeGreaterThanOrEqual(0);
    } else {
      expect(res.body).not.toContain('db_pool_waiting');
    }
  });

  it('labels durations by route pattern and status class, not by raw URL, and skips exempt routes', async () => {
    for (const id of ['1', '2', '3']) await t.app.inject({ method: 'GET', url: `/test-counted/${id}` });
    await t.app.inject({ method: 'GET', url: '/test-exempt/1' });
    const text = (await scrape()).body;
    expect(
      metricValue(
        text,
        'http_request_duration_seconds_count{route="/test-counted/:id",method="GET",status_class="2xx"}',
      ),
    ).toBe(3);
    expect(text).not.toContain('/test-counted/1');
    expect(text).not.toContain('test-exempt');
    expect(text).not.toContain('route="/metrics"');
  });

  it('counts the mail outbox and its oldest pending mail', async () => {
    await enqueueMail(t.db, { to: 'a@example.com', subject: 's', text: 't' }, new Date(Date.now() - 60_000));
    await enqueueMail(t.db, { to: 'b@example.com', subject: 's', text: 't' });
    const text = (await scrape()).body;
    expect(metricValue(text, 'mail_outbox_messages{status="pending"}')).toBe(2);
    expect(metricValue(text, 'mail_outbox_messages{status="failed"}')).toBe(0);
    expect(metricValue(text, 'mail_outbox_oldest_pending_age_seconds')).toBeGreaterThanOrEqual(59);
  });

  it('counts rate-limit rejections', async () => {
    const before = metricValue((await scrape()).body, 'http_rate_limit_rejections_total');
    const user = await t.makeUser();
    const codes: number[] = [];
    for (let i = 0; i < 3; i++)
      codes.push((await t.app.inject({ method: 'GET', url: '/api/notifications', headers: user.auth })).statusCode);
    expect(codes.filter((c) => c === 429).length).toBe(2);
    expect(metricValue((await scrape()).body, 'http_rate_limit_rejections_total')).toBe(before + 2);
  });
});

describe('health probes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('GET /health/live answers without the database', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/health/live' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('GET /health/ready names the failed check (no geographic data), then answers 200 once loaded', async () => {
    let res = await t.app.inject({ method: 'GET', url: '/health/ready' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({
      status: 'unavailable',
      failed: 'geo_data',
      detail: 'the geographic data is not loaded',
    });
    await t.db.insertInto('continents').values({ id: 1, name: 'Asia', active: 1 }).execute();
    await t.db.insertInto('countries').values({ id: 1, name: 'Iran', active: 1, continent_id: 1 }).execute();
    await t.db
      .insertInto('provinces')
      .values({ id: 1, name: 'Tehran', active: 1, country_id: 1, amar_code: null })
      .execute();
    res = await t.app.inject({ method: 'GET', url: '/health/ready' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('GET /health/ready names a pending migration', async () => {
    const last = (await t.db
      .selectFrom('kysely_migration' as never)
      .select('name' as never)
      .orderBy('name' as never, 'desc')
      .executeTakeFirstOrThrow()) as { name: string };
    await t.db
      .deleteFrom('kysely_migration' as never)
      .where('name' as never, '=', last.name as never)
      .execute();
    const res = await t.app.inject({ method: 'GET', url: '/health/ready' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({
      status: 'unavailable',
      failed: 'migrations',
      detail: `1 not applied, first ${last.name}`,
    });
    await t.db
      .insertInto('kysely_migration' as never)
      .values({ name: last.name, timestamp: new Date().toISOString() } as never)
      .execute();
  });

  it('GET /health is kept as it was', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });
});

describe('request ids and log lines', () => {
  let d: TestDatabase;
  let app: FastifyInstance;
  const lines: Array<Record<string, unknown>> = [];
  beforeAll(async () => {
    d = await createTestDatabase({ RATE_LIMIT_PER_MINUTE: 0 });
    const stream = new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const l of chunk.toString().split('\n').filter(Boolean))
          lines.push(JSON.parse(l) as Record<string, unknown>);
        done();
      },
    });
    app = await buildApp({
      config: d.config,
      database: d.handle,
      logger: { level: 'info', stream },
      loadGeoData: false,
      startWorkers: false,
    });
    await app.ready();
    startLines.push(...lines);
  });
  const startLines: Array<Record<string, unknown>> = [];
  afterAll(async () => {
    await app.close();
    await d.destroy();
  });

  it("logs at start what reading the store and building the knowledge index took, and the index's size", () => {
    const built = startLines.filter((l) => l.msg === 'knowledge: index built');
    expect(built).toHaveLength(1);
    const line = built[0]!;
    // The bundled articles, imported on this first start: 42 passages per language.
    expect(line.passages).toEqual({ en: 42, fa: 42 });
    expect(line.documents).toBe(0);
    for (const field of ['readMs', 'buildMs']) {
      expect(Number.isInteger(line[field])).toBe(true);
      expect(line[field] as number).toBeGreaterThanOrEqual(0);
    }
  });

  it('keeps a sane X-Request-Id and echoes it', async () => {
    const res = await app.inject({ method: 'GET', url: '/health/live', headers: { 'x-request-id': 'lb-7f3a:01.x_y' } });
    expect(res.headers['x-request-id']).toBe('lb-7f3a:01.x_y');
  });

  it.each([['a'.repeat(129)], ['has space'], ['semi;colon'], ['']])(
    'replaces an unusable X-Request-Id %#',
    async (given) => {
      const res = await app.inject({ method: 'GET', url: '/health/live', headers: { 'x-request-id': given } });
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    },
  );

  it('does not log probes at info; request lines carry the user id', async () => {
    lines.length = 0;
    await app.inject({ method: 'GET', url: '/health/ready' });
    await app.inject({ method: 'GET', url: '/health/live' });
    expect(lines.filter((l) => l.msg === 'request completed')).toEqual([]);
    const user = await userWithToken(d.db);
    await app.inject({
      method: 'GET',
      url: '/api/notifications',
      headers: { ...user.auth, 'x-request-id': 'req-42' },
    });
    const done = lines.find((l) => l.msg === 'request completed' && l.reqId === 'req-42');
    expect(done?.userId).toBe(user.id);
  });
});
