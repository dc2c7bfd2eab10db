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
import { sql } from 'kysely';
import type pg from 'pg';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { RequestsInFlight } from './in-flight.js';
import { RequestHistogram } from './request-histogram.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** false: this route is left out of the request metrics (and pays nothing for them). */
    metrics?: boolean;
  }
}

/** Process-wide metrics: the process itself, the assistant's provider, rate-limit rejections. */
export const processRegistry = new Registry();
collectDefaultMetrics({ register: processRegistry });
// prom-client names three gauges with a counter's _total suffix, which `promtool check metrics`
// refuses; each is the sum of its per-type gauge (nodejs_active_handles{type} …), which stays.
for (const name of ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'])
  processRegistry.removeSingleMetric(name);

/** The outcomes of a model call and the codes of a failed one: every series exists, at zero, from the start. */
export const PROVIDER_OUTCOMES = ['ok', 'error'] as const;
export const PROVIDER_ERROR_CODES = ['llm_timeout', 'llm_error'] as const;

export const providerLatency = new Histogram({
  name: 'assistant_provider_duration_seconds',
  help: 'Time the assistant model server took to answer, by outcome',
  labelNames: ['outcome'] as const,
  buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
  registers: [processRegistry],
});
export const providerErrors = new Counter({
  name: 'assistant_provider_errors_total',
  help: 'Failed calls to the assistant model server, by error code',
  labelNames: ['code'] as const,
  registers: [processRegistry],
});
// A series that appears only with its first event breaks rate() and alerts on it until then.
for (const outcome of PROVIDER_OUTCOMES) providerLatency.zero({ outcome });
for (const code of PROVIDER_ERROR_CODES) providerErrors.inc({ code }, 0);
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

export function registerMetrics(app: FastifyInstance, inFlight: RequestsInFlight, pool?: pg.Pool): void {
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

  const outbox = new Gauge({
    name: 'mail_outbox_messages',
    help: 'Mails in the outbox by status (pending, failed)',
    labelNames: ['status'] as const,
    registers: [registry],
  });
  const oldest = new Gauge({
    name: 'mail_outbox_oldest_pending_age_seconds',
    help: 'Age of the oldest pending mail (0 when none)',
    registers: [registry],
  });
  const collectOutbox = async () => {
    const rows = await app.deps.db
      .selectFrom('mail_outbox')
      .select(['status', sql<number>`count(*)`.as('n'), sql<string | null>`min(created_at)`.as('oldest')])
      .where('status', 'in', ['pending', 'failed'])
      .groupBy('status')
      .execute();
    outbox.set({ status: 'pending' }, 0);
    outbox.set({ status: 'failed' }, 0);
    oldest.set(0);
    for (const row of rows) {
      outbox.set({ status: row.status }, Number(row.n));
      if (row.status === 'pending' && row.oldest) oldest.set(Math.max(0, (Date.now() - Date.parse(row.oldest)) / 1000));
    }
  };
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
    await collectOutbox().catch((err: unknown) => req.log.warn({ err }, 'metrics: cannot read the mail outbox'));
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
