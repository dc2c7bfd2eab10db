// The OpenAPI document at /openapi.json, generated from the routes' TypeBox schemas and completed
// here so a client generator and a contract tester can rely on it (docs/openapi.md):
// - every route gets the error answers the platform gives it (400 malformed, 413/415 when it can
//   take a body, 414 with path parameters, 401 and 403 by its auth, 422 in its validation form, 405, 429, 503), added at
//   registration (onRoute) so routes added later comply without doing anything;
// - a stable operationId (the names below, else one derived from method and path);
// - schemas with a `title` become components.schemas entries used by $ref;
// - headers (Accept-Language, X-Request-Id, Retry-After, rate limit, ETag/If-None-Match), the
//   servers entry and the version of package.json.
import fs from 'node:fs';
import path from 'node:path';
import swagger from '@fastify/swagger';
import type { FastifyInstance, RouteOptions } from 'fastify';
import type { TSchema } from 'typebox';
import type { Config } from '../config.js';
import { projectRoot } from '../paths.js';
import { addDocumentedRules } from './openapi-rules.js';
import { ErrorSchemas, ValidationErrorSchemas } from './schemas.js';

/** Readable names of the operations; a route not listed gets verb + path words (getAdminUsersById). */
const OPERATION_IDS: Record<string, string> = {
  'GET /health': 'checkHealth',
  'GET /api/assistant/welcome': 'showWelcome',
  'POST /api/assistant/chat': 'chat',
  'GET /api/assistant/conversations': 'listConversations',
  'GET /api/assistant/conversations/{id}': 'showConversation',
  'DELETE /api/assistant/conversations/{id}': 'deleteConversation',
  'PUT /api/assistant/conversations/{id}/archive': 'archiveConversation',
  'POST /api/assistant/feedback': 'sendFeedback',
  'GET /api/admin/feedback': 'listFeedback',
  'POST /api/assistant/escalate': 'escalateConversation',
  'GET /api/tickets': 'listTickets',
  'GET /api/tickets/stats': 'showTicketStats',
  'POST /api/tickets': 'createTicket',
  'GET /api/tickets/{id}': 'showTicket',
  'PUT /api/tickets/{id}': 'updateTicket',
  'PUT /api/tickets/{id}/close': 'closeTicket',
  'POST /api/tickets/{id}/comments': 'addTicketComment',
  'GET /api/tickets/{id}/attachments/{attachment_id}/download': 'downloadAttachment',
  'GET /api/admin/tickets': 'listAllTickets',
  'GET /api/admin/tickets/{id}': 'showAnyTicket',
  'PUT /api/admin/tickets/{id}': 'updateTicketAsStaff',
  'POST /api/admin/tickets/{id}/comments': 'addStaffComment',
  'GET /api/provinces': 'listProvinces',
  'GET /api/counties/{id}': 'listCountiesOfProvince',
  'GET /api/districts/{id}': 'listDistrictsOfCounty',
  'GET /api/cities/{id}': 'listCitiesOfDistrict',
  'GET /api/villages/{id}': 'listVillagesOfDistrict',
  'GET /api/geographic/continents': 'listContinents',
  'GET /api/geographic/{level}/{parentId}/children': 'listChildren',
  'GET /api/notifications': 'listNotifications',
  'GET /api/notifications/unread-count': 'countUnreadNotifications',
  'POST /api/notifications/read-all': 'markAllNotificationsRead',
  'POST /api/notifications/{id}': 'markNotificationRead',
  'DELETE /api/notifications/{id}': 'deleteNotification',
  'GET /api/notifications/stream': 'streamNotifications',
  'POST /api/notifications/stream-tokens': 'createNotificationStreamToken',
  'PUT /api/admin/projects/{id}': 'reportProjectStatus',
  'POST /api/admin/projects/{id}/revision-requests': 'requestProjectRevision',
  'PUT /api/admin/investments/{id}': 'reportInvestmentStatus',
};

/** /api/tickets/:id -> /api/tickets/{id} */
export const openApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

export function operationIdFor(method: string, url: string): string {
  const openApi = openApiPath(url);
  const named = OPERATION_IDS[`${method} ${openApi}`];
  if (named) return named;
  const words = openApi
    .split('/')
    .filter((s) => s && s !== 'api')
    .map((s) => (s.startsWith('{') ? `by_${s.slice(1, -1)}` : s));
  const pascal = words
    .flatMap((w) => w.split(/[-_]/))
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');
  return `${method.toLowerCase()}${pascal}`;
}

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
  if (config.auth === 'user' || config.auth === 'staff' || config.auth === 'admin') add(401, ErrorSchemas.message);
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

const header = (description: string, schema: object = { type: 'string' }) => ({ description, schema });
const RATE_LIMIT_HEADERS = {
  'x-ratelimit-limit': header('Requests allowed per window.', { type: 'integer' }),
  'x-ratelimit-remaining': header('Requests left in the window.', { type: 'integer' }),
  'x-ratelimit-reset': header('Seconds until the window resets.', { type: 'integer' }),
};

type Json = Record<string, unknown>;

/** Moves every schema with a title into components.schemas and puts a $ref in its place. */
function hoistNamed(node: unknown, named: Json): unknown {
  if (Array.isArray(node)) return node.map((item) => hoistNamed(item, named));
  if (node === null || typeof node !== 'object') return node;
  const copy: Json = {};
  for (const [key, value] of Object.entries(node)) copy[key] = hoistNamed(value, named);
  if (
    typeof copy.title === 'string' &&
    /^[A-Za-z][A-Za-z0-9_.-]*$/.test(copy.title) &&
    (copy.type !== undefined || copy.anyOf !== undefined || copy.properties !== undefined)
  ) {
    named[copy.title] ??= copy;
    return { $ref: `#/components/schemas/${copy.title}` };
  }
  return copy;
}

/** The file fields of the upload routes whose files are not attachments[]. */
const MULTIPART_FILES: Record<string, { fields: Json; required: string[] }> = {
  '/api/admin/kb/files': {
    fields: {
      file: {
        type: 'string',
        format: 'binary',
        description:
          'The document: .pdf, .docx, .txt, .md or .markdown, smaller than 20 MB (at most 20,971,519 bytes).',
      },
    },
    required: ['file'],
  },
};

/** The multipart form of an upload route's JSON body: the same fields, files under attachments[] unless listed above. */
function multipartForm(jsonSchema: Json, route: string): Json {
  const properties = { ...(jsonSchema.properties as Json) };
  const own = MULTIPART_FILES[route];
  if (own) {
    Object.assign(properties, own.fields);
    return { type: 'object', required: [...((jsonSchema.required as string[]) ?? []), ...own.required], properties };
  }
  properties['attachments[]'] = {
    type: 'array',
    maxItems: 10,
    items: { type: 'string', format: 'binary' },
    description: 'Files: jpg, jpeg, png, gif, pdf, doc, docx, txt, zip or rar, each under 10 MB.',
  };
  return { type: 'object', required: jsonSchema.required ?? [], properties };
}

function completeDocument(doc: Json, config: Config, corsOn: boolean): Json {
  const named: Json = {};
  const paths = doc.paths as Record<string, Record<string, Json>>;
  for (const [route, operations] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      if (method === 'parameters') continue;
      const parameters = (operation.parameters as Json[] | undefined) ?? [];
      parameters.push({
        in: 'header',
        name: 'Accept-Language',
        required: false,
        description: 'en (default) or fa: the language of messages.',
        schema: { type: 'string' },
      });
      const geographic = (operation.tags as string[] | undefined)?.includes('geographic');
      if (geographic)
        parameters.push({
          in: 'header',
          name: 'If-None-Match',
          required: false,
          description: 'An ETag from an earlier answer: 304 without a body when it still matches.',
          schema: { type: 'string' },
        });
      operation.parameters = parameters;
      const body = (operation.requestBody as { content?: Record<string, { schema: Json }> } | undefined)?.content;
      if (body?.['multipart/form-data'])
        body['multipart/form-data'] = { schema: multipartForm(body['multipart/form-data'].schema, route) };
      for (const [status, answer] of Object.entries(operation.responses as Record<string, Json>)) {
        const code = Number(status);
        const headers: Json = {
          'x-request-id': header('The request id (a UUID), also in the logs.'),
          ...(answer.headers as Json | undefined),
        };
        if (code === 429 || code === 503)
          headers['retry-after'] = header('Seconds to wait before retrying.', { type: 'integer' });
        if (code === 405)
          headers.allow = header(`The methods this path serves${corsOn ? ' (OPTIONS: CORS preflight)' : ''}.`);
        if (code !== 304 && config.RATE_LIMIT_PER_MINUTE > 0) Object.assign(headers, RATE_LIMIT_HEADERS);
        if (geographic && (code === 200 || code === 304))
          headers.etag = header('Version of the answer, for If-None-Match.');
        answer.headers = headers;
        const content = answer.content as Record<string, { schema: Json }> | undefined;
        if (code === 304) delete answer.content;
        else if (content && code >= 300) answer.content = { 'application/json': Object.values(content)[0]! };
        if (code === 405) answer.description = 'The path exists but not with this method; Allow lists its methods.';
      }
      void route;
    }
  }
  addDocumentedRules(paths);
  const hoisted = hoistNamed(doc.paths, named) as Json;
  const components = doc.components as Json;
  return {
    ...doc,
    paths: hoisted,
    components: {
      ...components,
      schemas: { ...(components.schemas as Json), ...(hoistNamed(named, {}) as Json), ...named },
    },
  };
}

function packageVersion(): string {
  return (JSON.parse(fs.readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as { version: string }).version;
}

export async function registerOpenApi(app: FastifyInstance, config: Config): Promise<void> {
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
      servers: [
        {
          url: `http://${host.includes(':') ? `[${host}]` : host}:${config.PORT}`,
          description: 'The configured address (HOST, PORT).',
        },
      ],
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'Personal access token: <id>|<secret>' },
        },
      },
    },
    transformObject: (documentObject) =>
      completeDocument((documentObject as { openapiObject: Json }).openapiObject, config, corsOn) as never,
  });
  app.addHook('onRoute', (route) => {
    const schema = route.schema as ({ hide?: boolean; operationId?: string } & Json) | undefined;
    if (!schema || schema.hide) return;
    const method = [route.method].flat()[0]!;
    if (method === 'HEAD') return;
    const needsToken = route.config?.auth && route.config.auth !== 'optional';
    route.schema = {
      ...schema,
      operationId: schema.operationId ?? operationIdFor(method, route.url),
      response: completeResponses(route),
      ...(needsToken ? { security: [{ bearerAuth: [] }] } : {}),
    };
  });
}
