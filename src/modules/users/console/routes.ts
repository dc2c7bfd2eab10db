// The staff console's own endpoints: its session (read, sign out), sign-in by mail, the link's
// page and the sign-in it posts, the staff member's preferences, and the staff list. The link's
// page and its POST answer HTML, not JSON: a browser opens them from a mail or the platform.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { t } from '../../../core/i18n.js';
import { currentSession, currentUser } from '../../../http/auth.js';
import { clearedSessionCookie, fromOwnOrigin, sessionCookie } from '../../../http/console-cookie.js';
import { requestLocale } from '../../../http/i18n.js';
import { errorResponses } from '../../../http/schemas.js';
import {
  LinkPage,
  LinkParams,
  PreferencesBody,
  PreferencesResult,
  Said,
  SessionResult,
  SignInRequestBody,
  StaffList,
} from './schemas.js';
import * as consoleAuth from './service.js';
import { LINK_PAGE_HEADERS, messagePage, signInPage } from './link-page.js';

const tags = ['console'];
const CONSOLE = { auth: 'console', validationForm: 'general' } as const;
/** Sign-in requests per minute from one address, whatever the email. */
const SIGN_IN_REQUESTS_PER_MINUTE = 20;

/** A response documented as a page (text/html); the service's errors on the same route stay JSON. */
const page = (description: string) => ({ description, content: { 'text/html': { schema: LinkPage } } });

function html(reply: FastifyReply, status: number, body: string): FastifyReply {
  return reply.code(status).headers(LINK_PAGE_HEADERS).send(body);
}

const consoleRoutes: FastifyPluginAsync = async (instance) => {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const deps = app.deps;
  // The link page's form posts an empty urlencoded body; nothing in it is read.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 1024 },
    (_r, _b, done) => done(null, {}),
  );

  app.get(
    '/console/session',
    {
      schema: {
        operationId: 'showConsoleSession',
        summary: 'The console session of the cookie: who is signed in, the anti-forgery token, when it ends',
        description: 'Answers 401 without a live session cookie. A bearer token is not a console session.',
        tags,
        response: { 200: SessionResult, ...errorResponses(401, 503) },
      },
      config: CONSOLE,
    },
    async (req) => {
      const session = currentSession(req);
      const { id, email, first_name, last_name, role, locale } = session.user;
      return {
        success: true,
        data: {
          user: { id, email, first_name, last_name, role, locale },
          csrf_token: session.csrf_token,
          expires_at: session.expires_at,
          idle_expires_at: session.idle_expires_at,
        },
      };
    },
  );

  app.delete(
    '/console/session',
    {
      schema: {
        operationId: 'endConsoleSession',
        summary: 'Sign out: ends the console session and clears its cookie',
        description: 'Needs X-CSRF-Token and the service’s Origin (403 otherwise).',
        tags,
        response: { 200: Said, ...errorResponses(401, 403, 503) },
      },
      config: CONSOLE,
    },
    async (req, reply) => {
      const session = currentSession(req);
      await consoleAuth.endSession(deps, session.user.id, session.id);
      reply.header('set-cookie', clearedSessionCookie(req));
      return { success: true, message: t(requestLocale(req), 'console.signed_out') };
    },
  );

  app.post(
    '/console/sign-in-requests',
    {
      schema: {
        operationId: 'requestConsoleSignIn',
        summary: 'Mail a one-time sign-in link to a staff address (202 for any address)',
        description:
          'The answer is the same whether or not the address belongs to active staff; a link is mailed only when it does, ' +
          `at most ${consoleAuth.MAILS_PER_ADDRESS} per address in 15 minutes. ${SIGN_IN_REQUESTS_PER_MINUTE} requests a minute per client address.`,
        tags,
        body: SignInRequestBody,
        response: { 202: Said, ...errorResponses(422, 429, 503) },
      },
      config: {
        validationForm: 'general',
        rateLimit: {
          max: SIGN_IN_REQUESTS_PER_MINUTE,
          timeWindow: 60_000,
          keyGenerator: (req: FastifyRequest) => `ip:${req.ip}`,
        },
      },
    },
    async (req, reply) => {
      await consoleAuth.requestSignIn(deps, req.body.email);
      reply.code(202);
      return { success: true, message: t(requestLocale(req), 'console.sign_in_requested') };
    },
  );

  app.get(
    '/console/links/:token',
    {
      schema: {
        operationId: 'showConsoleLink',
        summary: 'The page of a sign-in link: one "Sign in" button posting to the same URL',
        description:
          'Opening the page uses nothing up (mail scanners fetch links). 410 with an explanation for a used, expired or unknown link.',
        tags,
        params: LinkParams,
        response: { 200: page('The link’s page.'), 410: page('The link is used, expired or unknown.') },
      },
    },
    async (req, reply) => {
      const locale = requestLocale(req);
      const user = await consoleAuth.linkHolder(deps, req.params.token);
      if (!user) return html(reply, 410, messagePage(locale, 'console.page_invalid'));
      return html(reply, 200, signInPage(locale, `${user.first_name} ${user.last_name}`.trim()));
    },
  );

  app.post(
    '/console/links/:token',
    {
      schema: {
        operationId: 'useConsoleLink',
        summary: 'Sign in with the link: uses it, sets the session cookie and redirects to /console/',
        description:
          'The Origin must be the service’s own (the link page’s form): 403 otherwise, and the link stays usable. ' +
          '410 for a used, expired or unknown link. The cookie is HttpOnly, SameSite=Strict, Secure over HTTPS.',
        tags,
        params: LinkParams,
        response: {
          303: page('Signed in: Set-Cookie and Location /console/.'),
          403: page('Not sent from the link’s page (Origin).'),
          410: page('The link is used, expired or unknown.'),
        },
      },
      preValidation: async (req) => {
        req.body ??= {};
      },
    },
    async (req, reply) => {
      const locale = requestLocale(req);
      if (!fromOwnOrigin(deps.config, req)) return html(reply, 403, messagePage(locale, 'console.page_cross_site'));
      const started = await consoleAuth.signIn(deps, req.params.token, req.headers['user-agent']);
      if (!started) return html(reply, 410, messagePage(locale, 'console.page_invalid'));
      reply.header('set-cookie', sessionCookie(req, started.secret, started.expires_at));
      return reply.code(303).header('location', '/console/').headers(LINK_PAGE_HEADERS).send('');
    },
  );

  app.get(
    '/console/preferences',
    {
      schema: {
        operationId: 'showConsolePreferences',
        summary: 'The signed-in staff member’s console preferences',
        description:
          "The signed-in staff member's preferences (the console's language); 401 without a live console session.",
        tags,
        response: { 200: PreferencesResult, ...errorResponses(401, 503) },
      },
      config: CONSOLE,
    },
    async (req) => ({ success: true, data: { locale: currentSession(req).user.locale } }),
  );

  app.put(
    '/console/preferences',
    {
      schema: {
        operationId: 'saveConsolePreferences',
        summary: 'Remember the console’s language for the signed-in staff member',
        description: 'The language is the user’s locale, also used for their mail. Needs X-CSRF-Token and the Origin.',
        tags,
        body: PreferencesBody,
        response: { 200: Said, ...errorResponses(401, 403, 422, 503) },
      },
      config: CONSOLE,
    },
    async (req) => {
      await consoleAuth.rememberLocale(deps, currentSession(req).user.id, req.body.locale);
      return { success: true, message: t(req.body.locale, 'console.preferences_saved') };
    },
  );

  app.get(
    '/admin/staff',
    {
      schema: {
        operationId: 'listStaff',
        summary: 'Support staff and administrators, to assign tickets to',
        description: 'Support staff and administrators who can be assigned tickets, by name: for the console.',
        tags,
        response: { 200: StaffList, ...errorResponses(401, 403, 503) },
      },
      config: { auth: 'staff', validationForm: 'general' },
    },
    async (req) => {
      currentUser(req);
      return { success: true, data: await consoleAuth.staffMembers(deps) };
    },
  );
};

export default consoleRoutes;
