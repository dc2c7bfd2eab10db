import { requestLocale } from './i18n.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { forbidden, msg, unauthenticated } from '../core/errors.js';
import { registerMessages, t } from '../core/i18n.js';
import {
  ConsoleSessionVerifier,
  isStaffRole,
  TokenVerifier,
  type ConsoleSession,
  type UserRecord,
} from '../modules/users/service.js';
import { carriesToken, changesState, fromOwnOrigin, sessionCookieOf } from './console-cookie.js';
import type { AuthMode } from './types.js';

registerMessages({
  'auth.admin_only': { en: 'This action is reserved for administrators.', fa: 'این کار فقط برای مدیران مجاز است.' },
});

/** The modes a console session cookie signs in on: staff and admin routes, and the console's own. */
const COOKIE_MODES = new Set<AuthMode>(['staff', 'admin', 'console']);

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
  const { config, db } = app.deps;
  const verifier = new TokenVerifier(db);
  const sessions = new ConsoleSessionVerifier(db, config.CONSOLE_SESSION_IDLE_MINUTES);
  app.decorateRequest('user', null);
  app.decorateRequest('answerVersion', null);
  app.decorateRequest('consoleSession', null);

  /**
   * The console session of the cookie, for a route that takes one and a request without a bearer
   * token. A state change must also carry the session's X-CSRF-Token and the service's Origin.
   */
  const cookieSession = async (req: FastifyRequest): Promise<ConsoleSession | undefined> => {
    const secret = sessionCookieOf(req);
    const session = secret ? await sessions.verify(secret) : undefined;
    if (session && changesState(req) && !(carriesToken(req, session.csrf_token) && fromOwnOrigin(config, req)))
      throw forbidden(msg('console.forgery'));
    return session;
  };

  const authenticate = async (req: FastifyRequest, reply: FastifyReply, mode: AuthMode) => {
    if (mode === 'console' || (COOKIE_MODES.has(mode) && !req.headers.authorization)) {
      const session = await cookieSession(req);
      if (session) {
        req.consoleSession = session;
        return admit(req, reply, mode, session.user);
      }
      if (mode === 'console') throw unauthenticated();
    }
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
    admit(req, reply, mode, user);
  };

  const admit = (req: FastifyRequest, reply: FastifyReply, mode: AuthMode, user: UserRecord) => {
    // Staff routes (tickets' staff side, the console) admit support staff and admins; the refusal
    // keeps the spec's wording of the admin routes they grew from.
    if (mode === 'staff' && !isStaffRole(user)) throw forbidden(t(requestLocale(req), 'auth.admin_only'));
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

/** The console session on a route declared with auth 'console' (the hook guarantees it is set). */
export function currentSession(req: FastifyRequest): ConsoleSession {
  if (!req.consoleSession) throw unauthenticated();
  return req.consoleSession;
}

/** The caller on a route declared with auth 'user', 'staff' or 'admin' (the hook guarantees it is set). */
export function currentUser(req: FastifyRequest): UserRecord {
  if (!req.user) throw unauthenticated();
  return req.user;
}
