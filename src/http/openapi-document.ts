// Completes the document @fastify/swagger builds from the routes' schemas. Everything here is a rule
// of the platform, the same for every route; what is particular to a feature (operationId,
// description, tags, upload limits, events of a stream) comes from the route's own schema through
// the extensions below (docs/openapi.md, "What a route declares").
import type { Config } from '../config.js';

type Json = Record<string, unknown>;

/**
 * Route-schema extensions the edge reads and removes:
 * - `x-multipart-body` (operation): the body as a multipart form, for routes with `consumes` that
 *   list multipart/form-data; the module builds it (its fields, its files and their limits).
 * - `x-document-as` (any schema): the form the document gives it when the route checks more, or
 *   otherwise, in code so that its answers keep the spec's wording: an integer id taken as text
 *   (anything else answers the route's 404), the chat context's bounds, the geographic level.
 */
export const MULTIPART_BODY = 'x-multipart-body';
export const DOCUMENT_AS = 'x-document-as';
/**
 * Kept in the document: on a response that also answers JSON, the media types served only when the
 * request's Accept asks for them (a Server-Sent Events stream). Generated clients never send that
 * Accept, so `content` holds JSON alone and their answer type is the JSON body, without a union.
 */
export const NEGOTIATED_CONTENT = 'x-negotiated-content';

/** The description of an answer the platform gives every route that can get it. */
const STATUS_DESCRIPTIONS: Record<number, string> = {
  304: 'Not modified: If-None-Match matched the current ETag; no body.',
  400: 'A refused action, a malformed path or an unreadable body.',
  401: 'No valid token.',
  403: 'The caller may not do this.',
  404: 'Not found, or not visible to the caller.',
  405: 'The path exists but not with this method; Allow lists its methods.',
  413: 'The body is larger than the limit.',
  414: 'A path parameter is longer than the router takes.',
  415: 'The body is not of a type the route takes.',
  422: 'Validation failed; errors lists the messages per field.',
  429: 'Too many requests; retry after Retry-After seconds.',
  500: 'A fault of the service, never an answer to client input.',
  503: 'Not available now (shutting down, or a dependency is down); retry after Retry-After seconds.',
};
const DEFAULT_DESCRIPTION = 'Default Response';

const header = (description: string, schema: object = { type: 'string' }) => ({ description, schema });
const RATE_LIMIT_HEADERS = {
  'x-ratelimit-limit': header('Requests allowed per window.', { type: 'integer' }),
  'x-ratelimit-remaining': header('Requests left in the window.', { type: 'integer' }),
  'x-ratelimit-reset': header('Seconds until the window resets.', { type: 'integer' }),
};

/** The `type` of an enum that does not say it (every value a string, or every value a number). */
function enumType(values: unknown[]): string | undefined {
  if (values.every((value) => typeof value === 'string')) return 'string';
  if (values.every((value) => typeof value === 'number')) return 'number';
  return undefined;
}

/**
 * Moves every schema with a title into components.schemas and puts a $ref in its place; an enum
 * gets its `type` (generators name and type enums by it).
 */
export function hoistNamed(node: unknown, named: Json): unknown {
  if (Array.isArray(node)) return node.map((item) => hoistNamed(item, named));
  if (node === null || typeof node !== 'object') return node;
  const copy: Json = {};
  for (const [key, value] of Object.entries(node)) copy[key] = hoistNamed(value, named);
  if (Array.isArray(copy.enum) && copy.type === undefined) {
    const type = enumType(copy.enum);
    if (type) copy.type = type;
  }
  if (
    typeof copy.title === 'string' &&
    /^[A-Za-z][A-Za-z0-9_.-]*$/.test(copy.title) &&
    (copy.type !== undefined || copy.anyOf !== undefined || copy.properties !== undefined)
  ) {
    named[copy.title] ??= copy;
    // A deprecated use stays marked where it is used, beside the reference (OpenAPI 3.1 allows it).
    return { $ref: `#/components/schemas/${copy.title}`, ...(copy.deprecated === true ? { deprecated: true } : {}) };
  }
  return copy;
}

/** The document's form of every schema that carries one (x-document-as), anywhere in `node`. */
function documentedForms(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(documentedForms);
  if (node === null || typeof node !== 'object') return node;
  const record = node as Json;
  if (record[DOCUMENT_AS]) return documentedForms(record[DOCUMENT_AS]);
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, documentedForms(value)]));
}

function completeParameters(operation: Json, conditional: boolean): void {
  const parameters = (operation.parameters as Json[] | undefined) ?? [];
  parameters.push({
    in: 'header',
    name: 'Accept-Language',
    required: false,
    description: 'en (default) or fa: the language of messages.',
    schema: { type: 'string' },
  });
  if (conditional)
    parameters.push({
      in: 'header',
      name: 'If-None-Match',
      required: false,
      description: 'An ETag from an earlier answer: 304 without a body when it still matches.',
      schema: { type: 'string' },
    });
  operation.parameters = parameters;
}

function completeRequestBody(operation: Json): void {
  const form = operation[MULTIPART_BODY] as Json | undefined;
  delete operation[MULTIPART_BODY];
  const body = (operation.requestBody as { content?: Record<string, { schema: Json }> } | undefined)?.content;
  if (form && body?.['multipart/form-data']) body['multipart/form-data'] = { schema: form };
}

function completeAnswers(operation: Json, config: Config, corsOn: boolean, conditional: boolean): void {
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
    if (conditional && (code === 200 || code === 304))
      headers.etag = header('Version of the answer, for If-None-Match.');
    answer.headers = headers;
    if (code >= 300 && (answer.description === DEFAULT_DESCRIPTION || code === 405))
      answer.description = STATUS_DESCRIPTIONS[code] ?? answer.description;
    // A success answer its schema does not describe is what the operation's summary says it does.
    if (code < 300 && answer.description === DEFAULT_DESCRIPTION && typeof operation.summary === 'string')
      answer.description = code === 201 ? `Created: ${operation.summary}.` : `${operation.summary}.`;
    const content = answer.content as Record<string, { schema: Json }> | undefined;
    if (code === 304) delete answer.content;
    // Errors are JSON, except on the pages a browser opens (the console's sign-in link), which answer HTML throughout.
    else if (content && code >= 300 && !content['text/html'])
      answer.content = { 'application/json': Object.values(content)[0]! };
    else if (content?.['application/json'] && Object.keys(content).length > 1) {
      const { 'application/json': json, ...negotiated } = content;
      answer.content = { 'application/json': json };
      answer[NEGOTIATED_CONTENT] = negotiated;
    }
  }
}

/** The document served at /openapi.json: the operations completed, the named schemas hoisted. */
export function completeDocument(doc: Json, config: Config, corsOn: boolean): Json {
  const named: Json = {};
  const paths = doc.paths as Record<string, Record<string, Json>>;
  for (const operations of Object.values(paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      if (method === 'parameters') continue;
      // A route that answers 304 answers conditionally: If-None-Match in, ETag out.
      const conditional = '304' in (operation.responses as Json);
      completeParameters(operation, conditional);
      completeRequestBody(operation);
      completeAnswers(operation, config, corsOn, conditional);
    }
  }
  const hoisted = hoistNamed(documentedForms(doc.paths), named) as Json;
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
