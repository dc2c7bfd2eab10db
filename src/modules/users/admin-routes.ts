// The users part of the admin integration API: the platform's back-end mirrors its users by id
// (PUT) and gives their browsers tokens at sign-in (POST) and takes them back at sign-out (DELETE).
// Admin token only; exempt from the platform rate limit like the rest of the integration API.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import { t } from '../../core/i18n.js';
import { requestLocale } from '../../http/i18n.js';
import { errorResponses } from '../../http/schemas.js';
import {
  CreatedTokenResult,
  RevokedResult,
  TokenBody,
  TokenList,
  UserBody,
  UserIdParams,
  UserResult,
  UserTokenParams,
} from './admin-schemas.js';
import * as directory from './directory.js';
import './messages.js';

const tags = ['admin integration'];

const userAdminRoutes: FastifyPluginAsync = async (instance) => {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const { deps } = app;
  const config = { auth: 'admin', validationForm: 'general', rateLimit: false } as const;

  app.put(
    '/admin/users/:id',
    {
      schema: {
        operationId: 'putAdminUser',
        summary: 'Create or update a user mirrored from the platform (201 created, 200 updated)',
        description:
          "The id is the platform's. Fields left out keep their value (new user: is_admin false, locale en, active true). The same body again changes nothing. " +
          "A new email changes which tickets are the user's by the ownership rule (user id or email matches): " +
          "tickets with the user's id stay, tickets matched only by the old address no longer show, tickets " +
          'with the new address do. ' +
          'active false revokes every token of the user at once.',
        tags,
        params: UserIdParams,
        body: UserBody,
        response: { 200: UserResult, 201: UserResult, ...errorResponses(401, 403, 422, 503) },
      },
      config,
    },
    async (req, reply) => {
      const saved = await directory.saveUser(deps, req.params.id, req.body);
      reply.code(saved.created ? 201 : 200);
      return {
        success: true,
        message: t(requestLocale(req), saved.created ? 'users.created' : 'users.updated'),
        data: saved.user,
        tokens_revoked: saved.tokens_revoked,
      };
    },
  );

  app.post(
    '/admin/users/:id/tokens',
    {
      schema: {
        operationId: 'createAdminUserToken',
        summary: 'Make a personal access token for the user (the token is shown only in this answer)',
        description: 'Not idempotent: a retried call makes a second token. An inactive user gets 422.',
        tags,
        params: UserIdParams,
        body: TokenBody,
        response: { 201: CreatedTokenResult, ...errorResponses(401, 403, 404, 422, 503) },
      },
      config,
      // Every field is optional, so a call without a body is a call with {}.
      preValidation: async (req) => {
        req.body ??= {};
      },
    },
    async (req, reply) => {
      const token = await directory.mintToken(deps, req.params.id, {
        name: req.body.name,
        expiresInDays: req.body.expires_in_days,
      });
      reply.code(201);
      return { success: true, id: token.id, name: token.name, token: token.plaintext, expires_at: token.expires_at };
    },
  );

  app.get(
    '/admin/users/:id/tokens',
    {
      schema: {
        operationId: 'listAdminUserTokens',
        summary: "The user's tokens that still sign in, newest first (never the secret)",
        description:
          'Tokens of the user that are neither revoked nor expired, newest first, with their names and last use; never the secret.',
        tags,
        params: UserIdParams,
        response: { 200: TokenList, ...errorResponses(401, 403, 404, 422, 503) },
      },
      config,
    },
    async (req) => ({ success: true, data: await directory.listTokens(deps, req.params.id) }),
  );

  app.delete(
    '/admin/users/:id/tokens/:token_id',
    {
      schema: {
        operationId: 'revokeAdminUserToken',
        summary: 'Revoke one token of the user (sign-out); again: 200 with count 0',
        description: 'Revokes the token at once on every instance; revoking it again answers 200 with count 0.',
        tags,
        params: UserTokenParams,
        response: { 200: RevokedResult, ...errorResponses(401, 403, 404, 422, 503) },
      },
      config,
    },
    async (req) => {
      const count = await directory.revokeUserToken(deps, req.params.id, req.params.token_id);
      return { success: true, message: t(requestLocale(req), 'users.token_revoked'), count };
    },
  );

  app.delete(
    '/admin/users/:id/tokens',
    {
      schema: {
        operationId: 'revokeAdminUserTokens',
        summary: 'Revoke every token of the user (sign-out everywhere, a password change)',
        description:
          'Revokes every token of the user at once (sign-out everywhere); the answer counts the tokens revoked.',
        tags,
        params: UserIdParams,
        response: { 200: RevokedResult, ...errorResponses(401, 403, 404, 422, 503) },
      },
      config,
    },
    async (req) => {
      const count = await directory.revokeUserTokens(deps, req.params.id);
      return { success: true, message: t(requestLocale(req), 'users.tokens_revoked'), count };
    },
  );
};

export default userAdminRoutes;
