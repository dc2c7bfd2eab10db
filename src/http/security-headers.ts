// Security headers on every response, as helmet sets them, without helmet's per-request cost.
// Helmet builds a new middleware on every request when registered through @fastify/helmet, and
// even with `global: false` that plugin adds two onRequest hooks to every route (one async, making
// a promise and a closure per request). Here helmet itself (the package @fastify/helmet wraps,
// same options) runs once, at start, against a throw-away response; the headers it set are kept
// and every response gets that copy. With the content security policy off no header varies
// between requests (a test compares them with @fastify/helmet's own).
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import helmet from 'helmet';

export const HELMET_OPTIONS = {
  contentSecurityPolicy: false,
  crossOriginResourcePolicy: { policy: 'same-site' },
} as const;

const HSTS = 'strict-transport-security';

/** The headers helmet sets with HELMET_OPTIONS, read off a response nobody receives; HSTS apart (see below). */
function helmetHeaders(): Record<string, string> {
  const req = new IncomingMessage(new Socket());
  const res = new ServerResponse(req);
  let failure: unknown;
  helmet(HELMET_OPTIONS)(req, res, (error?: unknown) => (failure = error));
  if (failure) throw failure;
  return Object.fromEntries(Object.entries(res.getHeaders()).map(([name, value]) => [name, String(value)]));
}

/** The headers every response gets: helmet's, without Strict-Transport-Security. */
export function securityHeaders(): Record<string, string> {
  const { [HSTS]: _hsts, ...headers } = helmetHeaders();
  return headers;
}

/**
 * Strict-Transport-Security only on a response to a request that came over HTTPS: on the socket,
 * or by X-Forwarded-Proto from a proxy TRUST_PROXY believes (Fastify's request.protocol). Sent over
 * plain HTTP it means nothing to a browser, and it would pin a host that serves HTTP only.
 */
export function securityHeadersHook() {
  const headers = securityHeaders();
  const hsts = helmetHeaders()[HSTS]!;
  return (req: FastifyRequest, reply: FastifyReply, done: () => void) => {
    reply.headers(headers);
    if (req.protocol === 'https') reply.header(HSTS, hsts);
    done();
  };
}
