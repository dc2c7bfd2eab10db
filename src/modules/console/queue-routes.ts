// The queue (staff): GET /api/admin/tickets with views, filters and orders, the views' counts,
// the tags.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Readable } from 'node:stream';
import type { FastifyPluginAsync } from 'fastify';
import { currentUser } from '../../http/auth.js';
import { exportCsv } from './export.js';
import { ExportQuery, QueueQuery, QueueResponses } from './queue-schemas.js';
import * as queue from './queue.js';

export const STAFF = { auth: 'staff', validationForm: 'tickets' } as const;
/** Staff routes outside /tickets answer the general 422 form. */
export const STAFF_GENERAL = { auth: 'staff', validationForm: 'general' } as const;
const tags = ['tickets-staff'];

const queueRoutes: FastifyPluginAsync = async (root) => {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const deps = app.deps;

  app.get(
    '/admin/tickets',
    {
      schema: {
        operationId: 'listStaffTickets',
        summary: 'The queue: every ticket, by view and filters (staff)',
        description:
          'A page of tickets with owner, assignee, tags, the SLA status and the next deadline. Views and ' +
          'filters combine (AND). sort=sla orders open tickets by their next SLA deadline.',
        tags,
        querystring: QueueQuery,
        response: QueueResponses.list,
      },
      config: STAFF,
    },
    async (req) => {
      const { page = 1, per_page: perPage = 15, sort = 'created_at', ...filters } = req.query;
      return queue.queuePage(deps, currentUser(req).id, filters, sort, page, perPage);
    },
  );

  app.get(
    '/admin/tickets/export.csv',
    {
      schema: {
        operationId: 'exportStaffTickets',
        summary: 'The filtered queue as CSV, streamed (staff)',
        description:
          'The same views and filters as the list, every matching ticket in id order, written as it is read (any number of rows in constant memory).',
        tags,
        querystring: ExportQuery,
        produces: ['text/csv'],
        response: QueueResponses.export,
      },
      config: STAFF,
    },
    async (req, reply) => {
      const day = new Date().toISOString().slice(0, 10);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="tickets-${day}.csv"`)
        .header('cache-control', 'private, no-store')
        .send(Readable.from(exportCsv(deps, currentUser(req).id, req.query)));
    },
  );

  app.get(
    '/admin/tickets/views',
    {
      schema: {
        operationId: 'listStaffTicketViews',
        summary: 'The queue views with their counts (staff)',
        description: 'mine, unassigned, open, at_risk and closed, each with the number of tickets it holds now.',
        tags,
        response: QueueResponses.views,
      },
      config: STAFF,
    },
    async (req) => ({ success: true, data: await queue.viewCounts(deps, currentUser(req).id) }),
  );

  app.get(
    '/admin/tags',
    {
      schema: {
        operationId: 'listStaffTags',
        summary: 'Every tag (staff)',
        description: 'The tags tickets can carry, by name, for the filters and the tag actions.',
        tags,
        response: QueueResponses.tags,
      },
      config: STAFF_GENERAL,
    },
    async () => ({ success: true, data: await queue.allTags(deps) }),
  );
};

export default queueRoutes;
