// Prepared answers: a GET whose answer is already a buffer in memory (the geographic reference
// data) is answered straight from the HTTP server's request handler, before Fastify builds its
// Request and Reply, runs the app-wide hooks and routes the URL. Fastify's own route for the same
// path stays registered (schemas, OpenAPI, validation) and answers everything this path does not
// take: a query string, a request body, HEAD, X-Forwarded-Proto (HSTS depends on it), a path in any
// other spelling (trailing slash, %-escapes, upper case), an unknown id, a closing server.
//
// What the client receives is what the Fastify route sends, header for header (in the same order)
// and byte for byte (test/geo/prepared-answers.test.ts compares the two over a socket): the request
// id echo, the security headers, cache-control, etag, content type and length, 304 on a matching
// If-None-Match. The request is counted in the request-duration histogram under the route's
// pattern, as Fastify's onResponse hook would count it. Why this exists: docs/performance.md
// ("Geographic").
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { RequestsInFlight } from './in-flight.js';
import { requestIdOf } from './request-id.js';
import { securityHeaders } from './security-headers.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Answers served before routing (src/http/prepared-answers.ts). */
    preparedAnswers: PreparedAnswers;
  }
}

/** An answer held in memory: its bytes and their strong ETag. */
export interface PreparedBody {
  body: Buffer;
  etag: string;
}

/** What a path resolves to: the route pattern it is counted under and the answer. */
export interface PreparedMatch {
  route: string;
  answer: PreparedBody;
  cacheControl: string;
}

/** Resolves a request path (no query string) to a prepared answer, or undefined to leave it to Fastify. */
export type PreparedLookup = (path: string) => PreparedMatch | undefined;

/** Records one answered request (route pattern, method, status, seconds) in the request metrics. */
export type RequestRecorder = (route: string, method: string, statusCode: number, seconds: number) => void;

/** True when an If-None-Match header names this ETag (weak or strong) or is "*". */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header === etag) return true;
  return header.split(',').some((candidate) => {
    const tag = candidate.trim();
    return tag === '*' || tag === etag || tag === `W/${etag}`;
  });
}

interface HeaderLists {
  cacheControl: string;
  ok: string[];
  notModified: string[];
}

export class PreparedAnswers {
  private readonly lookups: PreparedLookup[] = [];
  private readonly headerLists = new WeakMap<PreparedBody, HeaderLists>();
  private readonly security = securityHeaders();
  private record: RequestRecorder | undefined;
  private open = true;

  /** Adds a resolver; the first one that answers a path wins. */
  add(lookup: PreparedLookup): void {
    this.lookups.push(lookup);
  }

  recordWith(recorder: RequestRecorder): void {
    this.record = recorder;
  }

  /** From the start of the app's close on, every request goes to Fastify (which answers 503). */
  close(): void {
    this.open = false;
  }

  /** Answers the request and returns true, or returns false and leaves it untouched. */
  answer(req: IncomingMessage, res: ServerResponse): boolean {
    if (!this.open || this.lookups.length === 0 || req.method !== 'GET') return false;
    const url = req.url;
    if (url === undefined || url.includes('?')) return false;
    const headers = req.headers;
    if (
      headers['content-length'] !== undefined ||
      headers['transfer-encoding'] !== undefined ||
      headers['x-forwarded-proto'] !== undefined
    )
      return false;
    let match: PreparedMatch | undefined;
    for (const lookup of this.lookups) {
      match = lookup(url);
      if (match) break;
    }
    if (!match) return false;
    const started = this.record ? performance.now() : 0;
    const { answer } = match;
    const templates = this.headersFor(match);
    let status = 304;
    if (etagMatches(headers['if-none-match'], answer.etag)) {
      templates.notModified[1] = requestIdOf(req);
      res.writeHead(304, templates.notModified).end();
    } else {
      status = 200;
      templates.ok[1] = requestIdOf(req);
      res.writeHead(200, templates.ok).end(answer.body);
    }
    this.record?.(match.route, 'GET', status, (performance.now() - started) / 1000);
    return true;
  }

  /**
   * The answer's response headers as [name, value, …] lists, made once per answer (and cache
   * policy): writeHead reads them at once, so one list per answer serves every request, with the
   * request id (index 1) written in before each use. The order Fastify's route produces: the
   * request-id hook, the security-headers hook, the handler.
   */
  private headersFor(match: PreparedMatch): HeaderLists {
    const held = this.headerLists.get(match.answer);
    if (held && held.cacheControl === match.cacheControl) return held;
    const common = [
      'x-request-id',
      '',
      ...Object.entries(this.security).flat(),
      'cache-control',
      match.cacheControl,
      'etag',
      match.answer.etag,
    ];
    const made: HeaderLists = {
      cacheControl: match.cacheControl,
      notModified: common,
      ok: [
        ...common,
        'content-type',
        'application/json; charset=utf-8',
        'content-length',
        String(match.answer.body.length),
      ],
    };
    this.headerLists.set(match.answer, made);
    return made;
  }

  /**
   * Fastify's `serverFactory`: the HTTP/1.1 server Fastify would make (its timeouts included),
   * whose requests try a prepared answer first; those going on to Fastify are counted in flight.
   */
  serverFactory(inFlight: RequestsInFlight) {
    return (
      handler: (req: IncomingMessage, res: ServerResponse) => void,
      options: FastifyServerOptions,
    ): http.Server => {
      const server = http.createServer((req, res) => {
        if (this.answer(req, res)) return;
        inFlight.track(res);
        handler(req, res);
      });
      server.keepAliveTimeout = options.keepAliveTimeout ?? 72_000;
      server.requestTimeout = options.requestTimeout ?? 0;
      server.setTimeout(options.connectionTimeout ?? 0);
      if (options.maxRequestsPerSocket) server.maxRequestsPerSocket = options.maxRequestsPerSocket;
      return server;
    };
  }
}

/** Makes the app's prepared answers reachable by modules and stops them when the app starts closing. */
export function registerPreparedAnswers(app: FastifyInstance, answers: PreparedAnswers): void {
  app.decorate('preparedAnswers', answers);
  app.addHook('preClose', (done) => {
    answers.close();
    done();
  });
}
