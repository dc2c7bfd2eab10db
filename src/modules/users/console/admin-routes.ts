// The console part of the admin integration API: the platform's back-end asks for a sign-in link
// to put behind its "Support console" button, and lists or ends a staff member's console sessions.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import { t } from '../../../core/i18n.js';
import { requestLocale } from '../../../http/i18n.js';
import { errorResponses } from '../../../http/schemas.js';
import { UserIdParams } from '../admin-schemas.js';
import { EndedResult, LinkResult, SessionList, SessionParams } from './schemas.js';
import * as consoleAuth from './service.js';

const tags = ['admin integration'];

const consoleAdminRoutes: FastifyPluginAsync = async (instance) => {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const deps = app.deps;
  const config = { auth: 'admin', validationForm: 'general', rateLimit: false } as const;

  app.post(
    '/admin/users/:id/console-links',
    {
      schema: {
        operationId: 'createConsoleLink',
        summary: 'A one-time sign-in link to the staff console for a support or admin user',
        description:
          'Single-use, valid for 15 minutes; only its hash is stored. 400 for an inactive user or a member. ' +
          'The link is built on PUBLIC_URL (unset: the service’s HOST and PORT).',
        tags,
        params: UserIdParams,
        response: { 201: LinkResult, ...errorResponses(400, 401, 403, 404, 422, 503) },
      },
      config,
    },
    async (req, reply) => {
      const link = await consoleAuth.createLink(deps, req.params.id);
      reply.code(201);
      return { success: true, data: link };
    },
  );

  app.get(
    '/admin/users/:id/console-sessions',
    {
      schema: {
        operationId: 'listConsoleSessions',
        summary: "The user's live console sessions, newest first",
        description: "The user's console sessions that have not ended or expired, newest first; never a secret.",
        tags,
        params: UserIdParams,
        response: { 200: SessionList, ...errorResponses(401, 403, 404, 422, 503) },
      },
      config,
    },
    async (req) => ({ success: true, data: await consoleAuth.sessionsOf(deps, req.params.id) }),
  );

  app.delete(
    '/admin/users/:id/console-sessions/:session_id',
    {
      schema: {
        operationId: 'endConsoleSessionOfUser',
        summary: 'End one console session of the user; again: 200 with count 0',
        description: 'Ends one console session of the user at once; ending it again answers 200 with count 0.',
        tags,
        params: SessionParams,
        response: { 200: EndedResult, ...errorResponses(401, 403, 404, 422, 503) },
      },
      config,
    },
    async (req) => {
      const count = await consoleAuth.revokeSessionOf(deps, req.params.id, req.params.session_id);
      return { success: true, message: t(requestLocale(req), 'console.session_ended'), count };
    },
  );

  app.delete(
    '/admin/users/:id/console-sessions',
    {
      schema: {
        operationId: 'endConsoleSessionsOfUser',
        summary: 'End every console session of the user',
        description: 'Ends every console session of the user at once; the answer counts them.',
        tags,
        params: UserIdParams,
        response: { 200: EndedResult, ...errorResponses(401, 403, 404, 422, 503) },
      },
      config,
    },
    async (req) => {
      const count = await consoleAuth.revokeAllSessionsOf(deps, req.params.id);
      return { success: true, message: t(requestLocale(req), 'console.sessions_ended'), count };
    },
  );
};

export default consoleAdminRoutes;
