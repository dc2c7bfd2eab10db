// Staff side: the reply and any ticket's attachments (the queue, the ticket as staff see it and their changes are the console
// module's). A reply may carry if_version: 409 when a comment arrived since that version.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import { currentUser } from '../../http/auth.js';
import { t } from '../../core/i18n.js';
import { requestLocale } from '../../http/i18n.js';
import { attachmentIdFrom, sendAttachment, throwIfInvalid, ticketIdFrom } from './http-helpers.js';
import { MULTIPART_BODY } from '../../http/openapi-document.js';
import { errorResponses } from '../../http/schemas.js';
import * as schemas from './schemas.js';
import * as changes from './changes.js';
import { STAFF } from './access.js';
import * as tickets from './service.js';
import type { AttachmentStorage } from './storage/index.js';
import { commitUploads, uploadErrors, uploadsOf, type UploadHooks } from './uploads.js';

const STAFF_ROUTE = { auth: 'staff', validationForm: 'tickets' } as const;

interface StaffOptions {
  storage: AttachmentStorage;
  withUploads: UploadHooks;
}

const staffRoutes: FastifyPluginAsync<StaffOptions> = async (root, { storage, withUploads }) => {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const deps = app.deps;

  app.post(
    '/admin/tickets/:id/comments',
    {
      schema: {
        summary: 'Staff reply (moves the ticket to in-progress)',
        operationId: 'addStaffComment',
        description:
          'A staff reply, with files in a multipart form; an open ticket moves to in-progress and the first ' +
          'reply is recorded for the SLA: for support staff. With if_version, 409 when a comment arrived since ' +
          'that version; the body then carries the current one.',
        tags: ['tickets-staff'],
        consumes: schemas.UPLOAD_TYPES,
        [MULTIPART_BODY]: schemas.uploadForm(schemas.StaffReplyBody),
        params: schemas.TicketIdParams,
        body: schemas.StaffReplyBody,
        response: schemas.Responses.staffReply,
      },
      config: STAFF_ROUTE,
      attachValidation: true,
      ...withUploads,
    },
    async (req, reply) => {
      const ticket = await tickets.ticketOf(deps, STAFF, ticketIdFrom(req.params.id));
      throwIfInvalid(req, uploadErrors(req));
      await tickets.expectVersion(deps, ticket.id, req.body.if_version);
      const comment = await changes.addStaffReply(deps, currentUser(req), ticket, req.body.message, uploadsOf(req));
      commitUploads(req);
      return reply
        .code(201)
        .send({ success: true, message: t(requestLocale(req), 'tickets.comment_added'), data: comment });
    },
  );

  app.get(
    '/admin/tickets/:id/attachments/:attachment_id/download',
    {
      schema: {
        summary: "Download any ticket's attachment (staff)",
        operationId: 'downloadStaffAttachment',
        description:
          'The bytes of a file of any ticket, with its type, size and name; always as a download, never inline (the console previews png, jpeg and gif from the bytes).',
        tags: ['tickets-staff'],
        params: schemas.AttachmentParams,
        produces: ['application/octet-stream'],
        response: { ...schemas.Responses.download, ...errorResponses(403) },
      },
      config: STAFF_ROUTE,
    },
    async (req, reply) => {
      const ticket = await tickets.ticketOf(deps, STAFF, ticketIdFrom(req.params.id));
      const file = await changes.attachmentFile(deps, storage, ticket, attachmentIdFrom(req.params.attachment_id));
      return sendAttachment(reply, file);
    },
  );
};

export default staffRoutes;
