import { requestLocale } from './i18n.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { forbidden, unauthenticated } from '../core/errors.js';
import { registerMessages, t } from '../core/i18n.js';
import { TokenVerifier, type UserRecord } from '../modules/users/service.js';
import type { AuthMode } from './types.js';

registerMessages({
  'auth.admin_only': { en: 'This action is reserved for administrators.', fa: 'این کار فقط برای مدیران مجاز است.' },
});

const MAX_AUTHORIZATION_LENGTH = 512;

function bearerToken(req: FastifyRequest): string | undefined {
  const header = req.headers.authorization;
  if (!header || header.length > MAX_AUTHORIZATION_LENGTH) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/**
 * Resolves the caller on every route that declares config.auth. Runs as the first onRequest hook,
 * so a request without a valid token is refused before its body is read.
 */
export function registerAuth(app: FastifyInstance): void {
  const verifier = new TokenVerifier(app.deps.db);
  app.decorateRequest('user', null);
  app.decorateRequest('answerVersion', null);
  const authenticate = async (req: FastifyRequest, reply: FastifyReply, mode: AuthMode) => {
    const token = bearerToken(req);
    const queryToken = req.routeOptions.config.queryToken;
    // Only a route that names its own URL credential (the notification stream's single-use
    // stream token) looks past the header; a bearer token is never read from a URL.
    const scope = req.routeOptions.config.answerScope;
    let user: UserRecord | undefined;
    if (token && scope) {
      // A route that reuses answers gets the caller's version of them in the token's statement.
      const verified = await verifier.verifyWithVersion(token, scope);
      user = verified?.user;
      if (verified) req.answerVersion = verified.answerVersion;
    } else {
      user = token ? await verifier.verify(token) : queryToken ? await queryToken(req) : undefined;
    }
    if (!user) {
      if (mode === 'optional') return;
      throw unauthenticated();
    }
    // Staff routes (tickets' staff side, the console) admit admins; support roles join them in isStaff.
    if (mode === 'staff' && !isStaff(user)) throw forbidden(t(requestLocale(req), 'auth.admin_only'));
    if (mode === 'admin' && !user.is_admin) throw forbidden(t(requestLocale(req), 'auth.admin_only'));
    req.user = user;
    // The request's remaining log lines (the completion line included) name the caller.
    req.log = reply.log = req.log.child({ userId: user.id });
  };
  // A callback hook: a public route (no config.auth) passes without a promise and a microtask.
  app.addHook('onRequest', (req, reply, done) => {
    const mode = req.routeOptions.config.auth;
    if (!mode) return done();
    authenticate(req, reply, mode).then(() => done(), done);
  });
}

/** Whether a user works tickets as staff. */
export function isStaff(user: UserRecord): boolean {
  return user.is_admin;
}

/** The caller on a route declared with auth 'user', 'staff' or 'admin' (the hook guarantees it is set). */
export function currentUser(req: FastifyRequest): UserRecord {
  if (!req.user) throw unauthenticated();
  return req.user;
}
