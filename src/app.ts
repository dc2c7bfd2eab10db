// The application: Fastify with the platform's HTTP edge, the infrastructure plugins (src/plugins/)
// and the feature modules' routes, in the order they must run. docs/architecture.md shows the layers.
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Config } from './config.js';
import type { DatabaseHandle } from './db/index.js';
import { registerAuth } from './http/auth.js';
import { answerClientError, handleError, registerErrorHandling } from './http/error-handler.js';
import { registerHealth } from './http/health.js';
import { hotPathLogController, registerHotPathRoutes } from './http/hot-path.js';
import { registerJsonBody } from './http/json-body.js';
import { registerLingeringClose } from './http/lingering-close.js';
import { registerMethodNotAllowed } from './http/method-not-allowed.js';
import { RequestsInFlight } from './http/in-flight.js';
import { registerMetrics } from './http/metrics.js';
import { registerRateLimit } from './http/rate-limit.js';
import { PreparedAnswers, registerPreparedAnswers } from './http/prepared-answers.js';
import { registerRequestIdEcho, requestIdOf } from './http/request-id.js';
import { securityHeadersHook } from './http/security-headers.js';
import { modules } from './modules/index.js';
import consoleAssets from './plugins/console-assets.js';
import cors from './plugins/cors.js';
import attachmentStorage from './plugins/attachment-storage.js';
import deps from './plugins/deps.js';
import knowledgeBase from './plugins/knowledge-base.js';
import mailInbox from './plugins/mail-inbox.js';
import mailWorker from './plugins/mail-worker.js';
import notificationStreams from './plugins/notification-streams.js';
import redis from './plugins/redis.js';
import storageSweep from './plugins/storage-sweep.js';
import swagger from './plugins/swagger.js';
import validators from './plugins/validators.js';

export interface AppOptions {
  config: Config;
  /** An open database; by default one is opened from the config and closed with the app. */
  database?: DatabaseHandle;
  /** Fastify's logger option; by default pino at LOG_LEVEL. */
  logger?: FastifyServerOptions['logger'];
  /** Start background workers (mail outbox). Default true. */
  startWorkers?: boolean;
  /** Load the bundled geographic data at start when its tables are empty. Default true. */
  loadGeoData?: boolean;
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config } = options;
  const preparedAnswers = new PreparedAnswers();
  const inFlight = new RequestsInFlight();
  const app = Fastify({
    logger: options.logger ?? {
      level: config.LOG_LEVEL,
      redact: ['req.headers.authorization', 'req.headers.cookie'],
      // Readable lines for development (npm run dev); production logs stay JSON lines.
      ...(config.LOG_FORMAT === 'pretty'
        ? { transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' } } }
        : {}),
    },
    // A hop count is accepted by Fastify at run time though its type omits it.
    trustProxy: config.TRUST_PROXY as boolean | string[],
    bodyLimit: config.BODY_LIMIT_BYTES,
    genReqId: requestIdOf,
    logController: hotPathLogController(),
    requestIdHeader: false,
    // Routes match /api/x and /api/x/ alike; ids stay case-sensitive.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    // A path parameter over the length limit or a broken %-escape in the path: the router's own
    // answer would carry Fastify's internal code; the one error handler gives the platform's body.
    frameworkErrors: (error, req, reply) => handleError(error, req, reply),
    clientErrorHandler: answerClientError,
    // Answers held in memory (the geographic data) are sent before routing: src/http/prepared-answers.ts.
    serverFactory: preparedAnswers.serverFactory(inFlight),
    // A first start loads the bundled geographic data in an onReady hook: seconds, and on a busy
    // machine or a remote PostgreSQL more than Fastify's default 10 s, which would end the start.
    pluginTimeout: 300_000,
  });

  // Infrastructure: what every request and every module relies on.
  await app.register(validators);
  await app.register(redis, { config });
  await app.register(deps, {
    config,
    database: options.database,
    startWorkers: options.startWorkers ?? true,
    loadGeoData: options.loadGeoData ?? true,
  });
  await app.register(mailWorker);
  await app.register(attachmentStorage);
  await app.register(storageSweep);
  await app.register(mailInbox);
  await app.register(notificationStreams);
  await app.register(knowledgeBase);

  // The HTTP edge, in the order its hooks run.
  registerPreparedAnswers(app, preparedAnswers);
  registerHotPathRoutes(app);
  registerRequestIdEcho(app);
  registerJsonBody(app);
  registerErrorHandling(app);
  registerMethodNotAllowed(app, config.CORS_ORIGINS.length > 0);
  registerLingeringClose(app, config.BODY_LIMIT_BYTES);
  registerMetrics(app, inFlight, app.deps.database.pool);
  registerAuth(app);
  await registerRateLimit(app);
  app.addHook('onRequest', securityHeadersHook());
  await app.register(cors);
  await app.register(swagger);
  await app.register(consoleAssets);
  registerHealth(app);

  // The feature modules, each under /api.
  for (const module of modules) {
    if (module.routes) await app.register(module.routes, { prefix: '/api' });
  }
  return app;
}
