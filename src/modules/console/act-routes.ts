// Bulk actions and saved replies (staff).
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { HttpError, msg, ValidationError } from '../../core/errors.js';
import { t } from '../../core/i18n.js';
import { currentUser } from '../../http/auth.js';
import { requestLocale } from '../../http/i18n.js';
import { throwIfInvalid } from '../tickets/http-helpers.js';
import { ActResponses, BulkBody, SavedReplyBody, SavedReplyParams, SavedReplyQuery } from './act-schemas.js';
import { STAFF, STAFF_GENERAL } from './queue-routes.js';
import * as saved from './saved-replies.js';
import { bulkAction } from './service.js';

const tags = ['tickets-staff'];
/** The reason a ticket failed, in the request's language. */
function reason(req: FastifyRequest, error: unknown): string {
  if (error instanceof HttpError)
    return error.messageRef ? t(requestLocale(req), error.messageRef.key, error.messageRef.params) : error.body.message;
  throw error;
}

const actRoutes: FastifyPluginAsync = async (root) => {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const deps = app.deps;

  app.post(
    '/admin/tickets/bulk',
    {
      schema: {
        operationId: 'bulkStaffTickets',
        summary: 'Apply one action to many tickets (staff)',
        description:
          'Each ticket changes in a transaction of its own: a ticket that cannot take the change (not found, ' +
          'closed) is listed under failed with the reason and the others are still changed. A ticket already ' +
          'in the state asked for counts as updated and gets no activity, so a repeated request changes ' +
          'nothing twice.',
        tags,
        body: BulkBody,
        response: ActResponses.bulk,
      },
      config: STAFF,
      attachValidation: true,
    },
    async (req) => {
      throwIfInvalid(req);
      const { ids, action, value } = req.body;
      const result = await bulkAction(deps, currentUser(req), ids, action, value);
      return {
        success: true,
        data: {
          updated: result.updated,
          failed: result.failed.map((f) => ({ id: f.id, message: reason(req, f.error) })),
        },
      };
    },
  );

  app.get(
    '/admin/saved-replies',
    {
      schema: {
        operationId: 'listSavedReplies',
        summary: 'Saved replies, optionally of one language (staff)',
        description: 'By language, then title.',
        tags,
        querystring: SavedReplyQuery,
        response: ActResponses.savedReplies,
      },
      config: STAFF_GENERAL,
    },
    async (req) => ({ success: true, data: await saved.listSavedReplies(deps, req.query.lang) }),
  );

  /** The body's placeholders must all be known. */
  const checkPlaceholders = (body: string) => {
    const unknown = saved.unknownPlaceholders(body);
    if (unknown.length)
      throw new ValidationError(
        { body: [msg('console.unknown_placeholder', { attribute: 'body', name: unknown[0]! })] },
        'general',
      );
  };

  app.post(
    '/admin/saved-replies',
    {
      schema: {
        operationId: 'createSavedReply',
        summary: 'Save a reply (staff)',
        description: 'A reply text in one language, with placeholders the console fills in from the ticket.',
        tags,
        body: SavedReplyBody,
        response: ActResponses.savedReplyCreated,
      },
      config: STAFF_GENERAL,
    },
    async (req, reply) => {
      checkPlaceholders(req.body.body);
      const data = await saved.createSavedReply(deps, currentUser(req).id, req.body);
      return reply
        .code(201)
        .send({ success: true, message: t(requestLocale(req), 'console.saved_reply_created'), data });
    },
  );

  app.put(
    '/admin/saved-replies/:id',
    {
      schema: {
        operationId: 'updateSavedReply',
        summary: 'Change a saved reply (staff)',
        description: 'Replaces its title, body and language.',
        tags,
        params: SavedReplyParams,
        body: SavedReplyBody,
        response: ActResponses.savedReplyUpdated,
      },
      config: STAFF_GENERAL,
    },
    async (req) => {
      const id = saved.savedReplyId(req.params.id);
      checkPlaceholders(req.body.body);
      const data = await saved.updateSavedReply(deps, id, req.body);
      return { success: true, message: t(requestLocale(req), 'console.saved_reply_updated'), data };
    },
  );

  app.delete(
    '/admin/saved-replies/:id',
    {
      schema: {
        operationId: 'deleteSavedReply',
        summary: 'Delete a saved reply (staff)',
        description: 'Removes it for every staff member.',
        tags,
        params: SavedReplyParams,
        response: ActResponses.savedReplyDeleted,
      },
      config: STAFF_GENERAL,
    },
    async (req) => {
      await saved.deleteSavedReply(deps, saved.savedReplyId(req.params.id));
      return { success: true, message: t(requestLocale(req), 'console.saved_reply_deleted') };
    },
  );
};

export default actRoutes;
