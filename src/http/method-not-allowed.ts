// 405 for a known path asked with a method it does not serve (DELETE /api/tickets/1, PATCH,
// TRACE, QUERY): `405 {message}` with an Allow header naming the path's methods (HEAD with GET,
// OPTIONS when CORS is on). Decided in the first onRequest hook of the not-found route, so the
// request's body is neither parsed nor refused first (QUERY without a Content-Type was a 400).
import { requestLocale } from './i18n.js';
import type { FastifyInstance, HTTPMethods } from 'fastify';
import { HttpError } from '../core/errors.js';
import { registerMessages, t } from '../core/i18n.js';

registerMessages({
  'http.method_not_allowed': {
    en: 'The :method method is not supported for route :path. Supported methods: :allow.',
    fa: 'روش :method برای مسیر :path پشتیبانی نمی‌شود. روش‌های پشتیبانی‌شده: :allow.',
  },
});

const ROUTED_METHODS: HTTPMethods[] = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH'];

/** The methods the app serves at this concrete path, empty when the path is unknown. */
export function allowedMethods(app: FastifyInstance, path: string, withOptions: boolean): string[] {
  const allowed = ROUTED_METHODS.filter((method) => app.findRoute({ method, url: path }) !== null);
  // OPTIONS is answered on every path by the CORS preflight route: named only where there is a route.
  if (allowed.length && withOptions) allowed.push('OPTIONS');
  return allowed;
}

export function registerMethodNotAllowed(app: FastifyInstance, corsOn: boolean): void {
  // A callback hook: a matched route (every request but a 404) passes without a promise and a
  // microtask.
  app.addHook('onRequest', (req, _reply, done) => {
    if (!req.is404) return done();
    const path = req.url.split('?')[0]!;
    const allow = allowedMethods(app, path, corsOn);
    if (!allow.length || allow.includes(req.method)) return done();
    const message = t(requestLocale(req), 'http.method_not_allowed', {
      method: req.method.slice(0, 20),
      path: path.slice(0, 200),
      allow: allow.join(', '),
    });
    done(new HttpError(405, { message }, { allow: allow.join(', ') }));
  });
}
