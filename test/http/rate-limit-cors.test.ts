import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisUrl, requireRedis } from '../helpers/redis.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';

const redisAvailable = await requireRedis('the shared rate-limit tests');

async function routes(app: FastifyInstance) {
  app.get('/api/test/limited', { config: { auth: 'optional' } }, async () => ({ ok: true }));
  app.get('/api/test/exempt', { config: { rateLimit: false } }, async () => ({ ok: true }));
}

describe('platform default rate limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ config: { RATE_LIMIT_PER_MINUTE: 3 }, routes });
  });
  afterAll(() => t.close());

  it('answers the request over the limit with 429 {message} and Retry-After', async () => {
    const statuses = [];
    for (let i = 0; i < 4; i++)
      statuses.push(
        (await t.app.inject({ method: 'GET', url: '/api/test/limited', remoteAddress: '10.0.0.1' })).statusCode,
      );
    expect(statuses).toEqual([200, 200, 200, 429]);
    const res = await t.app.inject({ method: 'GET', url: '/api/test/limited', remoteAddress: '10.0.0.1' });
    expect(res.json()).toEqual({ message: 'Too Many Attempts.' });
    const retryAfter = Number(res.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
  });

  it('counts per IP for anonymous callers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/test/limited', remoteAddress: '10.0.0.2' });
    expect(res.statusCode).toBe(200);
  });

  it('counts per user for authenticated callers, whatever their address', async () => {
    const user = await t.makeUser();
    const statuses = [];
    for (let i = 0; i < 4; i++) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/test/limited',
        headers: user.auth,
        remoteAddress: `10.1.0.${i}`,
      });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it('leaves exempt routes and /health unlimited', async () => {
    for (let i = 0; i < 6; i++) {
      expect(
        (await t.app.inject({ method: 'GET', url: '/api/test/exempt', remoteAddress: '10.0.0.1' })).statusCode,
      ).toBe(200);
      expect((await t.app.inject({ method: 'GET', url: '/health', remoteAddress: '10.0.0.1' })).statusCode).toBe(200);
    }
  });
});

describe('rate limit turned off', () => {
  it('never limits when RATE_LIMIT_PER_MINUTE is 0', async () => {
    const t = await buildTestApp({ config: { RATE_LIMIT_PER_MINUTE: 0 }, routes });
    try {
      for (let i = 0; i < 20; i++)
        expect((await t.app.inject({ method: 'GET', url: '/api/test/limited' })).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});

describe.skipIf(!redisAvailable)('rate limit shared through Redis', () => {
  it('gives two instances one budget', async () => {
    const config = { RATE_LIMIT_PER_MINUTE: 4, REDIS_URL: redisUrl, REDIS_KEY_PREFIX: `test-${randomUUID()}:` };
    const a = await buildTestApp({ config, routes });
    const b = await buildTestApp({ config, routes });
    try {
      const statuses = [];
      for (let i = 0; i < 6; i++) {
        const app = i % 2 === 0 ? a.app : b.app;
        statuses.push(
          (await app.inject({ method: 'GET', url: '/api/test/limited', remoteAddress: '10.9.9.9' })).statusCode,
        );
      }
      expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe('CORS', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ config: { CORS_ORIGINS: ['https://app.example.com'] }, routes });
  });
  afterAll(() => t.close());

  it('allows a listed origin, with the headers clients need', async () => {
    const res = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/test/limited',
      headers: {
        origin: 'https://app.example.com',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization',
      },
    });
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('https://app.example.com');
    expect(String(res.headers['access-control-allow-headers'])).toContain('Authorization');
  });

  it('does not allow an unlisted origin', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/test/limited',
      headers: { origin: 'https://evil.example.com' },
    });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });
});
