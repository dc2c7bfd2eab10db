import type { AnswerScope } from '../db/answer-versions.js';
import type { ConsoleSession, UserRecord } from '../modules/users/service.js';
import type { AppDeps } from '../core/deps.js';
import type { ValidationForm } from '../core/errors.js';

/**
 * Who may call a route: a signed-in user, staff (the people who answer tickets), an admin, or
 * anyone (a valid token, if sent, identifies the caller). Staff and admin routes also take a
 * console session cookie; 'console' routes take only that (the session itself, preferences).
 */
export type AuthMode = 'user' | 'staff' | 'admin' | 'optional' | 'console';

import type { FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AuthMode;
    /**
     * A credential this route accepts in its URL when no Authorization header is sent (the
     * notification stream's ?stream_token=): resolves the caller or undefined (401).
     */
    queryToken?: (req: FastifyRequest) => Promise<UserRecord | undefined>;
    /** false: the route is left out of the request metrics (a stream lasting minutes). */
    metrics?: boolean;
    /** Which of the spec's three 422 bodies this route answers with (default: general). */
    validationForm?: ValidationForm;
    /**
     * The scope of the answers this route reuses (http/answer-reuse.ts): the auth hook reads the
     * caller's version of it with the token, in the same statement. Set through AnswerReuse.routeConfig.
     */
    answerScope?: AnswerScope;
  }
  interface FastifyRequest {
    /** The caller, set by the auth hook on routes with config.auth. */
    user: UserRecord | null;
    /** The caller's version of the route's config.answerScope, read by the auth hook with the token. */
    answerVersion: number | null;
    /** The console session the caller signed in with (cookie), when they did. */
    consoleSession: ConsoleSession | null;
  }
  interface FastifyInstance {
    deps: AppDeps;
  }
}
