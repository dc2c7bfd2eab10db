// The OpenAPI document at /openapi.json, generated from the routes' TypeBox schemas and completed
// here so a client generator and a contract tester can rely on it (docs/openapi.md):
// - every route gets the error answers the platform gives it (400 malformed, 413/415 when it can
//   take a body, 414 with path parameters, 401 and 403 by its auth, 422 in its validation form, 405, 429, 503), added at
//   registration (onRoute) so routes added later comply without doing anything;
// - `security` from the route's auth: the bearer token, optional, or none (`[]`, a public operation);
// - the tags the modules declare (with their descriptions), the servers entry, the version of
//   package.json; the rest of the completion is in openapi-document.ts.
// The operationId, description and tags of an operation are the route's own, in its schema.
import fs from 'node:fs';
import path from 'node:path';
import swagger from '@fastify/swagger';
import type { FastifyInstance, RouteOptions } from 'fastify';
import type { TSchema } from 'typebox';
import type { Config } from '../config.js';
import { projectRoot } from '../paths.js';
import { SESSION_COOKIE } from './console-cookie.js';
import { completeDocument } from './openapi-document.js';
import { ErrorSchemas, ValidationErrorSchemas } from './schemas.js';

/** A tag of the document with what its operations are about; each module declares its own. */
export interface OpenApiTag {
  name: string;
  description: string;
}

/** The edge's own operations (health). */
export const EDGE_TAGS: OpenApiTag[] = [
  { name: 'health', description: 'Liveness and readiness of the instance, for load balancers and orchestrators.' },
];

type Responses = Record<string, TSchema>;

/** The error answers of a route, from what it declares: body, auth, validation form, rate limit. */
function completeResponses(route: RouteOptions): Responses {
  const schema = (route.schema ?? {}) as {
    body?: unknown;
    querystring?: unknown;
    params?: unknown;
    response?: Responses;
  };
  const config = (route.config ?? {}) as {
    auth?: string;
    validationForm?: keyof typeof ValidationErrorSchemas;
    rateLimit?: unknown;
  };
  const response: Responses = { ...schema.response };
  const add = (status: number, body: TSchema) => {
    response[status] ??= body;
  };
  const method = [route.method].flat()[0];
  // 400: a path with a broken %-escape, or an unreadable body.
  add(400, ErrorSchemas.failure);
  // Any request but GET and HEAD may carry a body, declared or not: over the limit, or not JSON.
  if (method !== 'GET' && method !== 'HEAD') {
    add(413, ErrorSchemas.message);
    add(415, ErrorSchemas.message);
  }
  // A path parameter longer than the router takes (200 characters).
  if (route.url.includes(':')) add(414, ErrorSchemas.failure);
  if (config.auth && config.auth !== 'optional') add(401, ErrorSchemas.message);
  if (config.auth === 'staff' || config.auth === 'admin') add(403, ErrorSchemas.failure);
  // 422 also for any JSON body naming a forbidden field (__proto__), declared body or not.
  if (method !== 'GET' || schema.querystring !== undefined || schema.params !== undefined || response[422]) {
    response[422] = ValidationErrorSchemas[config.validationForm ?? 'general'];
  }
  add(405, ErrorSchemas.message);
  if (config.rateLimit !== false) add(429, ErrorSchemas.message);
  add(503, ErrorSchemas.message);
  // A fault of the service, never an answer to client input (the hostile suites assert it).
  add(500, ErrorSchemas.server);
  return response;
}

function packageVersion(): string {
  return (JSON.parse(fs.readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as { version: string }).version;
}

type Json = Record<string, unknown>;

/** `security` of an operation: a token, a console session cookie, either, optional ({} = anonymous), none. */
function securityOf(auth: unknown): Array<Record<string, string[]>> {
  if (auth === 'user') return [{ bearerAuth: [] }];
  if (auth === 'staff' || auth === 'admin') return [{ bearerAuth: [] }, { consoleSession: [] }];
  if (auth === 'console') return [{ consoleSession: [] }];
  if (auth === 'optional') return [{}, { bearerAuth: [] }];
  return [];
}

/** Registers @fastify/swagger; `tags` are the modules' tags, declared once with their descriptions. */
export async function registerOpenApi(app: FastifyInstance, config: Config, tags: OpenApiTag[]): Promise<void> {
  const declared = [...new Map([...EDGE_TAGS, ...tags].map((tag) => [tag.name, tag])).values()];
  const corsOn = config.CORS_ORIGINS.length > 0;
  const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? '127.0.0.1' : config.HOST;
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Platform API',
        version: packageVersion(),
        description:
          'Assistant chat, support tickets, geographic hierarchy and notifications of the cooperative investment platform.',
      },
      tags: declared,
      servers: [
        {
          url: `http://${host.includes(':') ? `[${host}]` : host}:${config.PORT}`,
          description: 'The configured address (HOST, PORT).',
        },
      ],
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'Personal access token: <id>|<secret>' },
          consoleSession: {
            type: 'apiKey',
            in: 'cookie',
            name: SESSION_COOKIE,
            description:
              'The staff console session (sign-in by one-time link); state-changing calls also need X-CSRF-Token and the Origin of the service.',
          },
        },
      },
    },
    transformObject: (documentObject) =>
      completeDocument((documentObject as { openapiObject: Json }).openapiObject, config, corsOn) as never,
  });
  app.addHook('onRoute', (route) => {
    const schema = route.schema as ({ hide?: boolean } & Json) | undefined;
    if (!schema || schema.hide) return;
    if ([route.method].flat()[0] === 'HEAD') return;
    route.schema = { ...schema, response: completeResponses(route), security: securityOf(route.config?.auth) };
  });
}
