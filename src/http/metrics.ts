// GET /metrics in Prometheus text format, answered only to "Authorization: Bearer <METRICS_TOKEN>"
// (404 while METRICS_TOKEN is unset, so it is never open by default).
//
// The per-request cost matters (the geographic routes are benchmarked against bare node:http):
// one onResponse hook, which reads the route pattern Fastify already holds (routeOptions.url) and
// the status class from a fixed table, and observes the histogram series of (pattern, method,
// class), which http/request-histogram.ts keeps; no object is built per request. A route with
// config.metrics = false is skipped altogether (its hook is not even installed).
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type pg from 'pg';
import { Counter, Gauge, Registry } from 'prom-client';
import { processRegistry } from '../core/metrics.js';
import type { RequestsInFlight } from './in-flight.js';
import type { MetricsCollector } from '../core/probes.js';
import { RequestHistogram } from './request-histogram.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** false: this route is left out of the request metrics (and pays nothing for them). */
    metrics?: boolean;
  }
}

/** Process-wide series of the edge and the plugins; features keep theirs beside their code (core/metrics.ts). */
export const rateLimitRejections = new Counter({
  name: 'http_rate_limit_rejections_total',
  help: 'Requests answered 429 by the rate limiter',
  registers: [processRegistry],
});

export const inboundMailMessages = new Counter({
  name: 'inbound_mail_messages_total',
  help: 'Messages the mailbox fetcher handled, by outcome (processed, failed: left in the mailbox, skipped: failed three times)',
  labelNames: ['outcome'] as const,
  registers: [processRegistry],
});

export const openNotificationStreams = new Gauge({
  name: 'notification_streams_open',
  help: 'Open GET /api/notifications/stream connections',
  registers: [processRegistry],
});

const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'];

export function registerMetrics(
  app: FastifyInstance,
  inFlight: RequestsInFlight,
  pool?: pg.Pool,
  collectors: MetricsCollector[] = [],
): void {
  const token = app.deps.config.METRICS_TOKEN;
  const registry = new Registry();
  const duration = new RequestHistogram(
    'http_request_duration_seconds',
    'Request duration by route pattern, method and status class',
    ['route', 'method', 'status_class'],
    [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registry,
  );
  // The scrapes reading the gauge are left out of it, as /metrics is left out of the other request metrics.
  let scrapesCounted = 0;
  new Gauge({
    name: 'http_requests_in_flight',
    help: 'Requests being answered (open event streams included, the scrape itself not)',
    registers: [registry],
    collect() {
      this.set(inFlight.count - scrapesCounted);
    },
  });

  const observe = (route: string, method: string, statusCode: number, seconds: number) => {
    // The histogram keeps one series per (route, method, status class) and finds it by their values.
    duration.labels(route, method, STATUS_CLASSES[Math.floor(statusCode / 100) - 1] ?? 'other').observe(seconds);
  };
  const onResponse = (req: FastifyRequest, reply: FastifyReply, done: () => void) => {
    observe(req.routeOptions.url ?? 'unmatched', req.method, reply.statusCode, reply.elapsedTime / 1000);
    done();
  };
  // Answers sent before routing (src/http/prepared-answers.ts) are counted the same way.
  app.preparedAnswers.recordWith(observe);
  app.addHook('onRoute', (route) => {
    if (route.config?.metrics === false) return;
    route.onResponse = [onResponse, ...toList(route.onResponse)];
  });

  // Features' metrics (the mail outbox): each refreshes its own before a scrape.
  const refreshers = collectors.map((c) => ({ source: c.source, refresh: c.register(registry, app.deps) }));
  if (pool) {
    new Gauge({
      name: 'db_pool_connections_in_use',
      help: 'PostgreSQL connections checked out',
      registers: [registry],
      collect() {
        this.set(pool.totalCount - pool.idleCount);
      },
    });
    new Gauge({
      name: 'db_pool_waiting',
      help: 'Queries waiting for a PostgreSQL connection',
      registers: [registry],
      collect() {
        this.set(pool.waitingCount);
      },
    });
  }

  // Without a token there is no route: /metrics answers 404 as any unknown path does.
  if (!token) return;
  app.get('/metrics', { schema: { hide: true }, config: { rateLimit: false, metrics: false } }, async (req, reply) => {
    // A wrong or missing token gets the same 404, so the endpoint's existence is not revealed.
    if (!bearerMatches(req.headers.authorization, token)) return reply.callNotFound();
    for (const { source, refresh } of refreshers)
      await refresh().catch((err: unknown) => req.log.warn({ err }, `metrics: cannot read ${source}`));
    const counted = inFlight.counts(reply.raw) ? 1 : 0;
    scrapesCounted += counted;
    try {
      const text = `${await processRegistry.metrics()}\n${await registry.metrics()}`;
      return reply.type(registry.contentType).send(text);
    } finally {
      scrapesCounted -= counted;
    }
  });
}

function toList<T>(value: T | T[] | undefined): T[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

function bearerMatches(header: string | undefined, token: string): boolean {
  if (!header?.startsWith('Bearer ')) return false;
  const given = Buffer.from(header.slice(7));
  const wanted = Buffer.from(token);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}
