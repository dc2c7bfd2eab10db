// Builds whole hostile requests for one route: path parameters, query, body, headers and caller.
import http from 'node:http';
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import {
  authChoiceFor,
  deepJson,
  extraHeaders,
  fieldValue,
  garbageAuthorization,
  hugeJson,
  jsonBody,
  malformedJson,
  malformedMultipart,
  multipartArbitrary,
  RAW_SEGMENT,
  trickyString,
  wrongContentType,
  wrongType,
  type AuthChoice,
  type RawBody,
} from './arbitraries.js';
import type { SentRequest } from './checks.js';
import { urlFor, type RouteSpec } from './routes.js';
import type { World } from './world.js';

export interface HostileRequest {
  options: InjectOptions;
  sent: SentRequest;
  auth: AuthChoice;
}

const NASTY_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'page[]',
  'per_page[0]',
  'q[]',
  'status[$ne]',
  'toString',
  '',
];

function asQueryValues(value: unknown): string[] {
  if (Array.isArray(value)) return value.map((v) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? '')));
  if (value !== null && typeof value === 'object') return [JSON.stringify(value)];
  return [String(value)];
}

/** Each field plausible or hostile (wrong type, tricky text), present or not. */
function mixedRecord(fields: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<Record<string, unknown>> {
  const mixed = Object.fromEntries(
    Object.entries(fields).map(([name, plausible]) => [name, fieldValue(fc.oneof(plausible, trickyString))]),
  );
  return fc.record(mixed, { requiredKeys: [] });
}

/** Every field present with a plausible value: requests that should mostly succeed. */
function plausibleRecord(fields: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<Record<string, unknown>> {
  return fc.record(fields);
}

function queryArbitrary(route: RouteSpec): fc.Arbitrary<string> {
  const known = route.query ?? {};
  const structured = fc
    .tuple(
      fc.oneof(plausibleRecord(known), mixedRecord(known)),
      fc.array(fc.tuple(fc.oneof(fc.constantFrom(...NASTY_KEYS), fc.string({ maxLength: 8 })), wrongType), {
        maxLength: 3,
      }),
    )
    .map(([fields, extras]) => {
      const params = new URLSearchParams();
      for (const [key, value] of [...extras, ...Object.entries(fields)]) {
        for (const v of asQueryValues(value)) params.append(key, v);
      }
      const text = params.toString();
      return text ? `?${text}` : '';
    });
  const raw = fc.constantFrom(
    '?%',
    '?page=%ZZ',
    '?per_page=1&per_page=2',
    '?&&&',
    '?=',
    '?page',
    '?q=%00',
    `?q=${'%F0%9F%98%80'.repeat(300)}`,
    '?category=%27%20OR%201%3D1--',
  );
  return fc.oneof(
    { arbitrary: structured, weight: 6 },
    { arbitrary: raw, weight: 1 },
    { arbitrary: fc.constant(''), weight: 2 },
  );
}

function objectBody(fields: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<RawBody> {
  return fc
    .tuple(
      fc.oneof({ arbitrary: plausibleRecord(fields), weight: 2 }, { arbitrary: mixedRecord(fields), weight: 3 }),
      fc.boolean(),
      fc.dictionary(fc.oneof(fc.constantFrom(...NASTY_KEYS), fc.string({ maxLength: 10 })), wrongType, { maxKeys: 3 }),
    )
    .map(([known, withExtra, extra]) =>
      withExtra ? jsonBody({ ...extra, ...known }, 'json with extra fields') : jsonBody(known),
    );
}

function bodyArbitrary(route: RouteSpec): fc.Arbitrary<RawBody | undefined> {
  const takesBody = route.body !== undefined;
  const choices: Array<fc.WeightedArbitrary<RawBody | undefined>> = [
    { arbitrary: fc.constant(undefined), weight: takesBody ? 1 : 6 },
    { arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => jsonBody(v, 'random json')), weight: 1 },
    { arbitrary: deepJson, weight: 1 },
    { arbitrary: hugeJson, weight: 1 },
    { arbitrary: malformedJson, weight: 1 },
    { arbitrary: wrongContentType, weight: 1 },
    { arbitrary: malformedMultipart, weight: route.multipart ? 2 : 1 },
  ];
  if (takesBody) choices.push({ arbitrary: objectBody(route.body!), weight: 10 });
  if (route.multipart) choices.push({ arbitrary: multipartArbitrary(route.body ?? {}), weight: 6 });
  return fc.oneof(...choices);
}

function paramsArbitrary(route: RouteSpec, world: World): fc.Arbitrary<Record<string, string>> {
  const entries = Object.entries(route.params ?? {}).map(([name, make]) => [name, make(world)] as const);
  const independent = fc.record(Object.fromEntries(entries)) as fc.Arbitrary<Record<string, string>>;
  return route.paramSets ? fc.oneof(route.paramSets(world), independent) : independent;
}

export function requestArbitrary(route: RouteSpec, world: World): fc.Arbitrary<HostileRequest> {
  const method =
    route.method === 'GET'
      ? fc.oneof({ arbitrary: fc.constant('GET'), weight: 9 }, { arbitrary: fc.constant('HEAD'), weight: 1 })
      : fc.constant(route.method);
  return fc
    .record({
      method,
      params: paramsArbitrary(route, world),
      query: queryArbitrary(route),
      body: bodyArbitrary(route),
      auth: authChoiceFor(route.access),
      garbage: garbageAuthorization,
      headers: extraHeaders,
      ip: fc.ipV4(),
    })
    .map(({ method, params, query, body, auth, garbage, headers, ip }) => {
      const authorization = {
        owner: world.owner.auth.authorization,
        admin: world.admin.auth.authorization,
        none: undefined,
        garbage,
      }[auth];
      const allHeaders: Record<string, string> = { ...headers };
      if (authorization !== undefined) allHeaders.authorization = authorization;
      if (body?.contentType) allHeaders['content-type'] = body.contentType;
      const url = `${urlFor(route, params)}${query}`;
      const options: InjectOptions = {
        method: method as InjectOptions['method'],
        url,
        headers: allHeaders,
        remoteAddress: ip,
      };
      if (body?.payload !== undefined) options.payload = body.payload;
      const longestParam = Math.max(0, ...Object.values(params).map((p) => encodeURIComponent(p).length));
      // '.' and '..' are not percent-encoded, so they are dot segments too (resolved before routing).
      const unroutable =
        longestParam > 200 || Object.values(params).some((p) => p.startsWith(RAW_SEGMENT) || p === '.' || p === '..');
      return { options, auth, sent: { method, url, auth, bodyKind: body?.kind ?? 'none', longestParam, unroutable } };
    });
}

/** inject with a deadline: a request that does not answer in time fails the property as a hang. */
export async function injectWithin(
  app: { inject(o: InjectOptions): Promise<import('fastify').LightMyRequestResponse> },
  options: InjectOptions,
  ms: number,
) {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms (hang)`)), ms);
  });
  try {
    return await Promise.race([app.inject(options), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** What the checks read of an answer, from inject or from a socket. */
export interface Answer {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
}

/**
 * The same request over a real socket to a listening app, for a route whose success is an event
 * stream that never ends by itself (inject would wait forever): the answer is read up to its first
 * event (or its end), then the client leaves. Shaped like inject's answer for the checks.
 */
export function socketWithin(base: string, options: InjectOptions, ms: number): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const payload =
      options.payload === undefined
        ? undefined
        : Buffer.isBuffer(options.payload)
          ? options.payload
          : Buffer.from(typeof options.payload === 'string' ? options.payload : JSON.stringify(options.payload));
    // inject frames a body with Content-Length; so does this (chunked is refused on a GET).
    const headers = {
      ...(options.headers as http.OutgoingHttpHeaders),
      ...(payload ? { 'content-length': payload.length } : {}),
    };
    const req = http.request(`${base}${options.url as string}`, { method: options.method, headers }, (res) => {
      let body = '';
      const done = () => {
        clearTimeout(timer);
        req.destroy();
        resolve({ statusCode: res.statusCode ?? 0, headers: res.headers, body });
      };
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
        if (
          String(res.headers['content-type']).startsWith('text/event-stream') &&
          /\n(event: [^\n]+\ndata: [^\n]*|: [^\n]*)\n\n/.test(body)
        )
          done();
      });
      res.on('end', done);
      res.on('error', done);
    });
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`no answer within ${ms} ms (hang)`));
    }, ms);
    req.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    req.end(payload);
  });
}

export function describeRequest(request: HostileRequest): string {
  const shorten = (s: string) => (s.length > 300 ? `${s.slice(0, 300)}… (${s.length} chars)` : s);
  const payload = request.options.payload;
  const payloadText =
    payload === undefined ? '' : Buffer.isBuffer(payload) ? `${payload.length} bytes` : shorten(String(payload));
  return `${request.sent.method} ${shorten(request.sent.url)} auth=${request.auth} body=${request.sent.bodyKind} ${payloadText}`;
}
