// The spec's Tickets endpoints (all Bearer) and the staff routes. Thin: schema, one service call,
// the response shape.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import { AnswerReuse } from '../../http/answer-reuse.js';
import { currentUser } from '../../http/auth.js';
import { t } from '../../core/i18n.js';
import { requestLocale } from '../../http/i18n.js';
import staffRoutes from './staff-routes.js';
import { attachmentIdFrom, sendAttachment, throwIfInvalid, ticketIdFrom } from './http-helpers.js';
import { MULTIPART_BODY } from '../../http/openapi-document.js';
import * as schemas from './schemas.js';
import * as changes from './changes.js';
import * as tickets from './service.js';
import mailRoutes from './email/routes.js';
import type { AttachmentStorage } from './storage/index.js';
import { bodyAsObject, commitUploads, registerUploads, uploadErrors, uploadHooks, uploadsOf } from './uploads.js';

const USER = { auth: 'user', validationForm: 'tickets' } as const;

export interface TicketRoutesOptions {
  storage?: AttachmentStorage;
}

const routes: FastifyPluginAsync<TicketRoutesOptions> = async (root, options) => {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const deps = app.deps;
  const storage = options.storage ?? root.attachmentStorage;
  await registerUploads(app);
  const withUploads = uploadHooks(storage);

  // The list and stats answers, reused per caller (and query) until their tickets change (http/answer-reuse.ts).
  const answers = new AnswerReuse(deps.db, 'tickets', deps.config.TICKETS_CACHE_MB * 1_048_576);
  app.get(
    '/tickets',
    {
      schema: {
        summary: "The caller's tickets",
        operationId: 'listTickets',
        description:
          "The caller's tickets (by owner id or email), newest first, filtered by status, priority, category and text, paginated.",
        tags: ['tickets'],
        querystring: schemas.ListQuery,
        response: schemas.Responses.list,
      },
      config: { ...USER, ...answers.routeConfig },
    },
    async (req, reply) => {
      const { page = 1, per_page: perPage = 15, ...filters } = req.query;
      const caller = currentUser(req);
      return answers.send(reply, { kind: 'list', userId: caller.id, values: { filters, page, perPage } }, (now) =>
        tickets.callerList(deps, caller, filters, page, perPage, now),
      );
    },
  );

  app.get(
    '/tickets/stats',
    {
      schema: {
        summary: "Counts of the caller's tickets by status",
        operationId: 'showTicketStats',
        description: 'How many tickets the caller has in total and per status.',
        tags: ['tickets'],
        response: schemas.Responses.stats,
      },
      config: { ...USER, ...answers.routeConfig },
    },
    async (req, reply) => {
      const caller = currentUser(req);
      return answers.send(reply, { kind: 'stats', userId: caller.id, values: {} }, async () => ({
        payload: { success: true, data: await tickets.ticketStats(deps, caller) },
      }));
    },
  );

  app.post(
    '/tickets',
    {
      schema: {
        summary: 'Open a ticket',
        operationId: 'createTicket',
        description:
          'Opens a ticket with a tracking code and SLA deadlines; files go in a multipart form under attachments[]. A confirmation mail follows.',
        tags: ['tickets'],
        consumes: schemas.UPLOAD_TYPES,
        [MULTIPART_BODY]: schemas.uploadForm(schemas.CreateBody),
        body: schemas.CreateBody,
        response: schemas.Responses.create,
      },
      config: USER,
      attachValidation: true,
      ...withUploads,
    },
    async (req, reply) => {
      throwIfInvalid(req, uploadErrors(req));
      const user = currentUser(req);
      const ticket = await tickets.createFullTicket(deps, {
        owner: user,
        ...req.body,
        attachments: uploadsOf(req),
      });
      commitUploads(req);
      return reply.code(201).send({ success: true, message: t(requestLocale(req), 'tickets.created'), data: ticket });
    },
  );

  app.get(
    '/tickets/:id',
    {
      schema: {
        summary: 'One ticket with comments and activities',
        operationId: 'showTicket',
        description:
          "A ticket of the caller with its attachments, comments and audit trail; another user's or a non-integer id answers the ticket 404.",
        tags: ['tickets'],
        params: schemas.TicketIdParams,
        response: schemas.Responses.detail,
      },
      config: USER,
    },
    async (req) => {
      const ticket = await tickets.ticketOf(deps, currentUser(req), ticketIdFrom(req.params.id));
      return { success: true, data: await tickets.ticketDetail(deps, ticket) };
    },
  );

  app.put(
    '/tickets/:id',
    {
      schema: {
        summary: 'Change priority and/or category of an open ticket',
        operationId: 'updateTicket',
        description:
          'Changes the priority (which moves the deadlines) and/or the category of an open ticket of the caller.',
        tags: ['tickets'],
        params: schemas.TicketIdParams,
        body: schemas.UpdateBody,
        response: schemas.Responses.update,
      },
      config: USER,
      attachValidation: true,
      preValidation: bodyAsObject,
    },
    async (req) => {
      const user = currentUser(req);
      const ticket = await tickets.ticketOf(deps, user, ticketIdFrom(req.params.id));
      throwIfInvalid(req);
      const data = await changes.updateTicketFields(deps, user, ticket, req.body ?? {});
      return { success: true, message: t(requestLocale(req), 'tickets.updated'), data };
    },
  );

  app.put(
    '/tickets/:id/close',
    {
      schema: {
        summary: 'Close a ticket',
        operationId: 'closeTicket',
        description: 'Closes a ticket of the caller and records when; closing a closed ticket answers 400.',
        tags: ['tickets'],
        params: schemas.TicketIdParams,
        response: schemas.Responses.close,
      },
      config: USER,
    },
    async (req) => {
      const user = currentUser(req);
      const ticket = await tickets.ticketOf(deps, user, ticketIdFrom(req.params.id));
      const data = await changes.closeTicket(deps, user, ticket);
      return { success: true, message: t(requestLocale(req), 'tickets.closed'), data };
    },
  );

  app.post(
    '/tickets/:id/comments',
    {
      schema: {
        summary: 'Comment (reopens a closed ticket)',
        operationId: 'addTicketComment',
        description:
          "Adds the caller's comment, with files in a multipart form; a comment on a closed ticket reopens it.",
        tags: ['tickets'],
        consumes: schemas.UPLOAD_TYPES,
        [MULTIPART_BODY]: schemas.uploadForm(schemas.CommentBody),
        params: schemas.TicketIdParams,
        body: schemas.CommentBody,
        response: schemas.Responses.comment,
      },
      config: USER,
      attachValidation: true,
      ...withUploads,
    },
    async (req, reply) => {
      const user = currentUser(req);
      const ticket = await tickets.ticketOf(deps, user, ticketIdFrom(req.params.id));
      throwIfInvalid(req, uploadErrors(req));
      const comment = await changes.addMemberComment(deps, user, ticket, req.body.message, uploadsOf(req));
      commitUploads(req);
      return reply
        .code(201)
        .send({ success: true, message: t(requestLocale(req), 'tickets.comment_added'), data: comment });
    },
  );

  app.get(
    '/tickets/:id/attachments/:attachment_id/download',
    {
      schema: {
        summary: 'Download an attachment (raw bytes)',
        operationId: 'downloadAttachment',
        description: 'The bytes of a file of a ticket of the caller, with its type, size and name; never inline.',
        tags: ['tickets'],
        params: schemas.AttachmentParams,
        produces: ['application/octet-stream'],
        response: schemas.Responses.download,
      },
      config: USER,
    },
    async (req, reply) => {
      const ticket = await tickets.ticketOf(deps, currentUser(req), ticketIdFrom(req.params.id));
      const file = await changes.attachmentFile(deps, storage, ticket, attachmentIdFrom(req.params.attachment_id));
      return sendAttachment(reply, file);
    },
  );

  await app.register(staffRoutes, { storage, withUploads });
  await app.register(mailRoutes, { storage });
};

export default routes;
