// The OpenAPI document as a contract for every test: each answer a test receives, from inject or
// from a real server, must be one the document describes for its operation (the status is listed,
// the content type is the documented one, the body matches the schema). buildTestApp wraps
// app.inject with it, so every test is checked without doing anything; a new route with TypeBox
// response schemas complies because src/http/openapi.ts documents the error answers of every route.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { SseClient } from './sse.js';

type Json = Record<string, unknown>;
interface MediaType {
  schema?: Json;
}
interface Operation {
  responses: Record<
    string,
    { content?: Record<string, MediaType>; 'x-negotiated-content'?: Record<string, MediaType> }
  >;
}

export interface Answer {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
}

const BODILESS = new Set([204, 304]);

export class Contract {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
  private readonly templates: Array<{ path: string; pattern: RegExp; statics: number }>;
  private readonly compiled = new Map<string, ReturnType<Ajv2020['compile']>>();

  /**
   * resolveDotSegments: inject resolves /./ and /../ (and %2e) before routing, as a browser would;
   * over a socket the router gets the path as sent, so a dot is a parameter value there.
   */
  constructor(
    private readonly doc: { paths: Record<string, Record<string, Operation>>; components: Json },
    private readonly resolveDotSegments = true,
  ) {
    addFormats.default(this.ajv);
    this.ajv.addFormat('binary', true);
    // Response schemas are compiled by JSON pointer into the document, so their $refs resolve.
    const components = {
      ...doc.components,
      schemas: {
        ...(doc.components.schemas as Json),
        RouteError: {
          anyOf: [{ $ref: '#/components/schemas/ErrorMessage' }, { $ref: '#/components/schemas/Failure' }],
        },
      },
    };
    this.ajv.addSchema({ $id: 'openapi.json', components, paths: doc.paths } as never);
    this.templates = Object.keys(doc.paths)
      .map((path) => ({
        path,
        pattern: new RegExp(
          `^${path
            .split('/')
            .map((s) => (s.startsWith('{') ? '[^/]+' : s.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
            .join('/')}/?$`,
        ),
        statics: path.split('/').filter((s) => s && !s.startsWith('{')).length,
      }))
      .sort((a, b) => b.statics - a.statics);
  }

  /** The documented path a concrete URL belongs to (static segments win, as in the router). */
  pathOf(url: string): string | undefined {
    let path = url.split('?')[0]!;
    if (this.resolveDotSegments) {
      try {
        path = new URL(path, 'http://localhost').pathname;
      } catch {
        // left as sent
      }
    }
    return this.templates.find((t) => t.pattern.test(path))?.path;
  }

  private validator(pointer: string) {
    let validate = this.compiled.get(pointer);
    if (!validate) {
      const ref = pointer.replace(/^#/, 'openapi.json#');
      validate = this.ajv.compile({ $ref: ref });
      this.compiled.set(pointer, validate);
    }
    return validate;
  }

  /** The schema at a JSON pointer into the document, following $refs: [its own pointer, the schema]. */
  private resolve(pointer: string): [string, Json] {
    let node: unknown = this.doc;
    for (const part of pointer.replace(/^#\//, '').split('/'))
      node = (node as Json)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
    const ref = (node as Json).$ref;
    return typeof ref === 'string' ? this.resolve(ref) : [pointer, node as Json];
  }

  /** What is wrong with a Server-Sent Events stream (its status, headers and body so far), or undefined. */
  streamProblem(method: string, url: string, client: SseClient): string | undefined {
    return this.problem(method, url, {
      statusCode: client.status,
      headers: client.response.headers as never,
      body: client.raw,
    });
  }

  /** What is wrong with this answer to `method url`, or undefined when the document describes it. */
  problem(method: string, url: string, answer: Answer): string | undefined {
    const status = answer.statusCode;
    const path = this.pathOf(url);
    const operations = path ? this.doc.paths[path]! : undefined;
    const verb = method.toUpperCase() === 'HEAD' ? 'get' : method.toLowerCase();
    const operation = operations?.[verb];
    // Refused by Node's HTTP parser before any route (headers too large, too slow): no operation's answer.
    if (status === 408 || status === 431)
      return String(answer.headers['content-type']).startsWith('application/json')
        ? undefined
        : `${status} not in JSON`;
    let mediaTypes: Record<string, MediaType> | undefined;
    let negotiated: Record<string, MediaType> = {};
    if (!operation) {
      // No operation: a path the service does not have (404), a method the path does not serve
      // (405), or a request refused before routing (400, 413, 414, 415, 431). Bodies: {message} or
      // {success:false, message}.
      // The CORS preflight answers OPTIONS on every path.
      if (method.toUpperCase() === 'OPTIONS' && (status === 204 || status === 200) && !answer.body) return undefined;
      if (![400, 404, 405, 408, 413, 414, 415, 431].includes(status))
        return `${method} ${url}: no operation in the document answers ${status}`;
      if (status === 405 && !answer.headers.allow) return `${method} ${url}: 405 without Allow`;
    } else {
      const response = operation.responses[String(status)];
      if (!response)
        return `${verb.toUpperCase()} ${path}: status ${status} is not documented (${Object.keys(operation.responses).join(', ')}); body ${answer.body.slice(0, 200)}`;
      // Media types served only on request (Accept: text/event-stream) are documented beside content.
      mediaTypes = response.content && { ...response.content, ...response['x-negotiated-content'] };
      if (!mediaTypes || BODILESS.has(status) || method.toUpperCase() === 'HEAD') return undefined;
      negotiated = response['x-negotiated-content'] ?? {};
    }
    const contentType = String(answer.headers['content-type'] ?? '')
      .split(';')[0]!
      .trim();
    let pointer: string | undefined;
    if (mediaTypes) {
      const [documentedType, media] =
        Object.entries(mediaTypes).find(([type]) => type === contentType) ?? Object.entries(mediaTypes)[0]!;
      // A file download: its own type; documented as binary.
      if ((media.schema as Json | undefined)?.format === 'binary') return undefined;
      // A page for a browser (the console's sign-in link): documented as text, read by people.
      if (documentedType === 'text/html' && contentType === 'text/html') return undefined;
      // A spreadsheet export (text/csv): rows of text, not JSON.
      if (documentedType === 'text/csv' && contentType === 'text/csv') return undefined;
      if (documentedType !== contentType)
        return `${verb.toUpperCase()} ${path} ${status}: content type ${contentType || '(none)'}, documented ${Object.keys(mediaTypes).join(', ')}`;
      const escapePointer = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');
      const where = documentedType in negotiated ? 'x-negotiated-content' : 'content';
      pointer = `#/paths/${escapePointer(path!)}/${verb}/responses/${status}/${where}/${escapePointer(documentedType)}/schema`;
    } else if (contentType !== 'application/json') {
      return `${method} ${url} ${status}: content type ${contentType || '(none)'}, not application/json`;
    }
    // A HEAD answer has the headers of the GET answer and no body (no route: a 404 or 405 too).
    if (method.toUpperCase() === 'HEAD') return undefined;
    // An event stream: the schema is the data of an event; x-sse-events names the schema of each
    // event type, and an event of a type it does not name is not documented.
    if (contentType === 'text/event-stream' && pointer) {
      const [streamPointer, schema] = this.resolve(pointer);
      const events = (schema['x-sse-events'] ?? {}) as Json;
      for (const event of parseEventStream(answer.body)) {
        if (!(event.event in events))
          return `${method} ${url} ${status}: event type ${event.event} is not in x-sse-events (${Object.keys(events).join(', ')})`;
        const validate = this.validator(`${streamPointer}/x-sse-events/${event.event}`);
        if (!validate(event.data))
          return `${method} ${url} ${status}: event ${JSON.stringify(event).slice(0, 300)} does not match the document: ${this.ajv.errorsText(validate.errors)}`;
      }
      return undefined;
    }
    let body: unknown;
    try {
      body = JSON.parse(answer.body);
    } catch {
      return `${method} ${url} ${status}: the body is not JSON: ${answer.body.slice(0, 200)}`;
    }
    const validate = this.validator(pointer ?? '#/components/schemas/RouteError');
    if (!validate(body))
      return `${method} ${url} ${status}: body does not match the document: ${this.ajv.errorsText(validate.errors)}; body ${answer.body.slice(0, 300)}`;
    return undefined;
  }
}

/** The events of a Server-Sent Events body as {event, id?, data} (data parsed from JSON; unparsable data stays text). */
export function parseEventStream(text: string): Array<{ event: string; id?: string; data: unknown }> {
  const events: Array<{ event: string; id?: string; data: unknown }> = [];
  for (const block of text.split('\n\n')) {
    let name = 'message';
    let id: string | undefined;
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith('event: ')) name = line.slice(7);
      else if (line.startsWith('id: ')) id = line.slice(4);
      else if (line.startsWith('data: ')) data.push(line.slice(6));
    }
    if (data.length === 0) continue;
    let parsed: unknown = data.join('\n');
    try {
      parsed = JSON.parse(parsed as string);
    } catch {
      // left as text: the schema then says it is wrong
    }
    events.push({ event: name, ...(id === undefined ? {} : { id }), data: parsed });
  }
  return events;
}

/** Wraps app.inject so every answer is checked against the app's own document. */
export async function enforceContract(app: FastifyInstance, exempt: string[] = []): Promise<void> {
  const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
  const contract = new Contract(doc);
  const exemptPaths = new Set(exempt.map((url) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}')));
  const inject = app.inject.bind(app) as (options: InjectOptions | string) => Promise<LightMyRequestResponse>;
  const checked = async (options: InjectOptions | string): Promise<LightMyRequestResponse> => {
    const res = await inject(options);
    const { method = 'GET', url = '/' } =
      typeof options === 'string' ? { url: options } : (options as { method?: string; url?: string });
    // /metrics answers Prometheus text and /console the staff console's page and files; both are
    // left out of the document on purpose.
    if (
      String(url).startsWith('/openapi.json') ||
      String(url).startsWith('/console') ||
      String(url).startsWith('/docs') ||
      String(url).startsWith('/metrics') ||
      exemptPaths.has(contract.pathOf(String(url)) ?? '')
    )
      return res;
    const problem = contract.problem(String(method), String(url), {
      statusCode: res.statusCode,
      headers: res.headers,
      body: res.body,
    });
    if (problem) throw new Error(`answer not described by the OpenAPI document: ${problem}`);
    return res;
  };
  (app as unknown as { inject: typeof checked }).inject = ((options?: InjectOptions | string) =>
    options === undefined ? inject(options as never) : checked(options)) as typeof checked;
}
