// Request ids: a caller's X-Request-Id is kept when sane (1-128 letters, digits, . _ : -), else a
// new one is made; every answer echoes it in X-Request-Id.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, RawRequestDefaultExpression } from 'fastify';

const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestIdOf(req: RawRequestDefaultExpression): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && SANE_REQUEST_ID.test(given) ? given : randomUUID();
}

export function registerRequestIdEcho(app: FastifyInstance): void {
  // A callback hook, not an async one: no promise and microtask per request.
  app.addHook('onRequest', (req, reply, done) => {
    reply.header('x-request-id', req.id);
    done();
  });
}
