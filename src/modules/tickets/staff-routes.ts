// Staff side (admins only): every ticket, the same filters, status/assignee changes and replies.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import { currentUser } from '../../http/auth.js';
import { t } from '../../core/i18n.js';
import { requestLocale } from '../../http/i18n.js';
import { pageMeta } from '../../core/pagination.js';
import { throwIfInvalid, ticketIdFrom } from './http-helpers.js';
import { staffSummaryView } from './presenter.js';
import { MULTIPART_BODY } from '../../http/openapi-document.js';
import * as schemas from './schemas.js';
import * as changes from './changes.js';
import * as tickets from './service.js';
import { staffUpdate } from './staff.js';
import type { AttachmentStorage } from './storage/index.js';
import { bodyAsObject, commitUploads, uploadErrors, uploadsOf, type UploadHooks } from './uploads.js';

const STAFF_ROUTE = { auth: 'staff', validationForm: 'tickets' } as const;

interface StaffOptions {
  storage: AttachmentStorage;
  withUploads: UploadHooks;
}

const staffRoutes: FastifyPluginAsync<StaffOptions> = async (root, { withUploads }) => {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const deps = app.deps;

  app.get(
    '/admin/tickets',
    {
      schema: {
        summary: 'All tickets (staff)',
        operationId: 'listAllTickets',
        description:
          'Every ticket, newest first or by SLA deadline, with the list filters and the staff filters (assignee, SLA status), paginated: for support staff.',
        tags: ['tickets-staff'],
        querystring: schemas.StaffListQuery,
        response: schemas.Responses.staffList,
      },
      config: STAFF_ROUTE,
    },
    async (req) => {
      const { page = 1, per_page: perPage = 15, ...filters } = req.query;
      const now = Date.now();
      const { total, rows, tags, people } = await tickets.listTickets(deps, null, { ...filters, now }, page, perPage);
      return {
        success: true,
        data: rows.map((r) => staffSummaryView(r, tags.get(r.id) ?? [], people, now)),
        meta: pageMeta(total, page, perPage),
      };
    },
  );

  app.get(
    '/admin/tickets/:id',
    {
      schema: {
        summary: 'Any ticket in detail (staff)',
        operationId: 'showAnyTicket',
        description: 'Any ticket with its owner, attachments, comments and audit trail: for support staff.',
        tags: ['tickets-staff'],
        params: schemas.TicketIdParams,
        response: schemas.Responses.detail,
      },
      config: STAFF_ROUTE,
    },
    async (req) => {
      const ticket = await tickets.ticketOf(deps, null, ticketIdFrom(req.params.id));
      return { success: true, data: await tickets.ticketDetail(deps, ticket) };
    },
  );

  app.put(
    '/admin/tickets/:id',
    {
      schema: {
        summary: 'Change status and/or assignee (staff)',
        operationId: 'updateTicketAsStaff',
        description:
          'Changes the status and/or the assignee of any ticket, with an activity per change; the owner is notified: for support staff.',
        tags: ['tickets-staff'],
        params: schemas.TicketIdParams,
        body: schemas.StaffUpdateBody,
        response: schemas.Responses.staffDetail,
      },
      config: STAFF_ROUTE,
      attachValidation: true,
      preValidation: bodyAsObject,
    },
    async (req) => {
      const ticket = await tickets.ticketOf(deps, null, ticketIdFrom(req.params.id));
      throwIfInvalid(req);
      await staffUpdate(deps, currentUser(req), ticket, req.body);
      const updated = await tickets.ticketOf(deps, null, ticket.id);
      return {
        success: true,
        message: t(requestLocale(req), 'tickets.updated'),
        data: await tickets.ticketDetail(deps, updated),
      };
    },
  );

  app.post(
    '/admin/tickets/:id/comments',
    {
      schema: {
        summary: 'Staff reply (moves the ticket to in-progress)',
        operationId: 'addStaffComment',
        description:
          'A staff reply, with files in a multipart form; an open ticket moves to in-progress and the first reply is recorded for the SLA: for support staff.',
        tags: ['tickets-staff'],
        consumes: schemas.UPLOAD_TYPES,
        [MULTIPART_BODY]: schemas.uploadForm(schemas.CommentBody),
        params: schemas.TicketIdParams,
        body: schemas.CommentBody,
        response: schemas.Responses.comment,
      },
      config: STAFF_ROUTE,
      attachValidation: true,
      ...withUploads,
    },
    async (req, reply) => {
      const ticket = await tickets.ticketOf(deps, null, ticketIdFrom(req.params.id));
      throwIfInvalid(req, uploadErrors(req));
      const comment = await changes.addComment(deps, currentUser(req), ticket, req.body.message, uploadsOf(req), true, {
        mailOwner: true,
      });
      commitUploads(req);
      return reply
        .code(201)
        .send({ success: true, message: t(requestLocale(req), 'tickets.comment_added'), data: comment });
    },
  );
};

export default staffRoutes;
