import { randomUUID } from 'node:crypto';
import cors from '@fastify/cors';
import swaggerUi from '@fastify/swagger-ui';
import { Ajv, type Options as AjvOptions } from 'ajv';
import addFormats from 'ajv-formats';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { Redis } from 'ioredis';
import type { Config } from './config.js';
import { createDatabase, type DatabaseHandle } from './db/index.js';
import { registerAuth } from './http/auth.js';
import { answerClientError, handleError, registerErrorHandling } from './http/error-handler.js';
import { registerJsonBody } from './http/json-body.js';
import { registerLingeringClose } from './http/lingering-close.js';
import { registerMethodNotAllowed } from './http/method-not-allowed.js';
import { registerOpenApi } from './http/openapi.js';
import { registerHealth } from './http/health.js';
import { registerMetrics } from './http/metrics.js';
import { registerRateLimit } from './http/rate-limit.js';
import { hotPathLogController, registerHotPathRoutes } from './http/hot-path.js';
import { securityHeadersHook } from './http/security-headers.js';
import type { AppDeps } from './http/types.js';
import { modules } from './modules/index.js';

const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

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

/**
 * Two validators: path and query values arrive as text, so "5" becomes 5 there; a JSON body is
 * checked as sent, so null never turns into "" nor 42 into "42" (which would let a number pass as a
 * message or make `category: null` store an empty string). Every error is reported, as clients
 * show one sentence per field; the body size limit bounds that work.
 */
function registerValidators(app: FastifyInstance): void {
  const common: AjvOptions = { useDefaults: true, removeAdditional: true, addUsedSchema: false, allErrors: true, strict: false };
  const coercing = addFormats.default(new Ajv({ ...common, coerceTypes: 'array' }));
  const exact = addFormats.default(new Ajv({ ...common, coerceTypes: false }));
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? exact : coercing).compile(httpPart === 'querystring' ? closedObject(schema) : schema));
}

/**
 * A query string keeps only the keys its schema declares: an unknown key (a front-end's extra
 * parameter, a staff-only filter on a member route) is dropped before the handler runs, so no
 * undeclared value reaches SQL or an answer-reuse key (docs/decisions.md, "Unknown query keys").
 */
function closedObject<T extends object>(schema: T): T {
  const object = schema as { type?: unknown; additionalProperties?: unknown };
  return object && object.type === 'object' && object.additionalProperties === undefined ? ({ ...object, additionalProperties: false } as T) : schema;
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config } = options;
  const app = Fastify({
    logger: options.logger ?? { level: config.LOG_LEVEL, redact: ['req.headers.authorization', 'req.headers.cookie'] },
    // A hop count is accepted by Fastify at run time though its type omits it.
    trustProxy: config.TRUST_PROXY as boolean | string[],
    bodyLimit: config.BODY_LIMIT_BYTES,
    // A caller's X-Request-Id is kept when sane (1-128 letters, digits, . _ : -), else a new one.
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && SANE_REQUEST_ID.test(given) ? given : randomUUID();
    },
    logController: hotPathLogController(),
    requestIdHeader: false,
    // Routes match /api/x and /api/x/ alike; ids stay case-sensitive.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    // A path parameter over the length limit or a broken %-escape in the path: the router's own
    // answer would carry Fastify's internal code; the one error handler gives the platform's body.
    frameworkErrors: (error, req, reply) => handleError(error, req, reply),
    clientErrorHandler: answerClientError,
  });
  registerValidators(app);

  const database = options.database ?? createDatabase(config);
  const ownsDatabase = !options.database;
  const redis = config.REDIS_URL
    ? new Redis(config.REDIS_URL, { maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 2_000 })
    : undefined;
  redis?.on('error', (err) => app.log.warn({ err }, 'redis error'));

  const deps: AppDeps = {
    config,
    db: database.db,
    dialect: database.dialect,
    database,
    redis,
    startWorkers: options.startWorkers ?? true,
    loadGeoData: options.loadGeoData ?? true,
  };
  app.decorate('deps', deps);
  app.addHook('onClose', async () => {
    redis?.disconnect();
    if (ownsDatabase) await database.close();
  });

  registerHotPathRoutes(app);
  // A callback hook, not an async one: no promise and microtask per request.
  app.addHook('onRequest', (req, reply, done) => {
    reply.header('x-request-id', req.id);
    done();
  });

  registerJsonBody(app);
  registerErrorHandling(app);
  registerMethodNotAllowed(app, config.CORS_ORIGINS.length > 0);
  registerLingeringClose(app, config.BODY_LIMIT_BYTES);
  registerMetrics(app, database.pool);
  registerAuth(app);
  await registerRateLimit(app);
  app.addHook('onRequest', securityHeadersHook());
  await app.register(cors, {
    origin: config.CORS_ORIGINS === '*' ? true : config.CORS_ORIGINS.length ? config.CORS_ORIGINS : false,
    methods: ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'],
    allowedHeaders: ['Authorization', 'Content-Type', 'Accept-Language', 'If-None-Match'],
    exposedHeaders: ['Content-Disposition', 'Retry-After', 'X-Request-Id', 'ETag'],
    maxAge: 600,
  });

  await registerOpenApi(app, config);
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: true });

  app.get('/openapi.json', { schema: { hide: true }, config: { rateLimit: false } }, async () => app.swagger());

  registerHealth(app);

  for (const module of modules) {
    if (module.routes) await app.register(module.routes, { prefix: '/api' });
  }
  return app;
}
