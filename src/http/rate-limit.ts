// Rate limits. The platform default (RATE_LIMIT_PER_MINUTE per caller: the token's user, else the
// IP) applies to every route that does not set config.rateLimit itself; routes opt out with
// config.rateLimit = false (the geographic reference data) or set their own (escalate). Counters
// live in Redis when REDIS_URL is set, so every instance shares one budget, else in memory.
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { tooManyRequests } from '../core/errors.js';
import { rateLimitRejections } from './metrics.js';

export function callerKey(req: FastifyRequest): string {
  return req.user ? `user:${req.user.id}` : `ip:${req.ip}`;
}

export async function registerRateLimit(app: FastifyInstance): Promise<void> {
  const perMinute = app.deps.config.RATE_LIMIT_PER_MINUTE;
  // Runs before the plugin's own onRoute hook, so the default is in place when it looks.
  app.addHook('onRoute', (route) => {
    route.config ??= {};
    if (route.config.rateLimit === undefined && perMinute > 0 && route.url.startsWith('/api')) {
      route.config.rateLimit = { max: perMinute, timeWindow: 60_000, keyGenerator: callerKey };
    }
  });
  await app.register(rateLimit, {
    global: false,
    ...(app.deps.redis ? { redis: app.deps.redis, nameSpace: `${app.deps.config.REDIS_KEY_PREFIX}rate:` } : {}),
    // A Redis outage must not take the API down with it: requests pass unlimited meanwhile.
    skipOnError: true,
    addHeadersOnExceeding: { 'x-ratelimit-limit': true, 'x-ratelimit-remaining': true, 'x-ratelimit-reset': false },
    addHeaders: {
      'x-ratelimit-limit': true,
      'x-ratelimit-remaining': true,
      'x-ratelimit-reset': false,
      'retry-after': true,
    },
    errorResponseBuilder: (_req, context) => {
      rateLimitRejections.inc();
      return tooManyRequests(context.ttl / 1000);
    },
  });
}
