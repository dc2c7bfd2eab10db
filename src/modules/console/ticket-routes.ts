// The ticket as staff see it (GET), what they change on it (PUT), internal notes and presence.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import { currentUser } from '../../http/auth.js';
import { t } from '../../core/i18n.js';
import { requestLocale } from '../../http/i18n.js';
import { throwIfInvalid, ticketIdFrom } from '../tickets/http-helpers.js';
import { TicketIdParams } from '../tickets/schemas.js';
import { markPresence } from './presence.js';
import { STAFF } from './queue-routes.js';
import * as service from './service.js';
import { NoteBody, PresenceBody, StaffChangeBody, TicketResponses } from './ticket-schemas.js';

const tags = ['tickets-staff'];

const ticketRoutes: FastifyPluginAsync = async (root) => {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const deps = app.deps;

  app.get(
    '/admin/tickets/:id',
    {
      schema: {
        operationId: 'getStaffTicket',
        summary: 'Any ticket with its whole story (staff)',
        description:
          "The member's detail plus the timeline (messages, replies, internal notes and changes, oldest " +
          'first), the member with their other tickets, the escalated assistant conversation and the version ' +
          'to send back with a reply.',
        tags,
        params: TicketIdParams,
        response: TicketResponses.detail,
      },
      config: STAFF,
    },
    async (req) => ({ success: true, data: await service.staffTicket(deps, ticketIdFrom(req.params.id)) }),
  );

  app.put(
    '/admin/tickets/:id',
    {
      schema: {
        operationId: 'updateStaffTicket',
        summary: 'Change assignee, status, priority, category or tags (staff)',
        description:
          'All given fields change together in one transaction with their activity rows. Assigning an open ' +
          'ticket moves it to in-progress; a closed ticket keeps its priority and category unless the same ' +
          'change reopens it (400).',
        tags,
        params: TicketIdParams,
        body: StaffChangeBody,
        response: TicketResponses.update,
      },
      config: STAFF,
      attachValidation: true,
    },
    async (req) => {
      const id = ticketIdFrom(req.params.id);
      await service.staffTicketOf(deps, id);
      throwIfInvalid(req);
      const data = await service.changeTicket(deps, currentUser(req), id, req.body ?? {});
      return { success: true, message: t(requestLocale(req), 'tickets.updated'), data };
    },
  );

  app.post(
    '/admin/tickets/:id/notes',
    {
      schema: {
        operationId: 'addStaffTicketNote',
        summary: 'Add an internal note (staff-only)',
        description:
          "A note staff see in the ticket's timeline. Members never see it: not in their ticket, list, counts or any mail; it changes nothing they can read.",
        tags,
        params: TicketIdParams,
        body: NoteBody,
        response: TicketResponses.note,
      },
      config: STAFF,
      attachValidation: true,
    },
    async (req, reply) => {
      const ticket = await service.staffTicketOf(deps, ticketIdFrom(req.params.id));
      throwIfInvalid(req);
      const data = await service.addNote(deps, currentUser(req), ticket.id, req.body.message);
      return reply.code(201).send({ success: true, message: t(requestLocale(req), 'console.note_added'), data });
    },
  );

  app.put(
    '/admin/tickets/:id/presence',
    {
      schema: {
        operationId: 'markStaffTicketPresence',
        summary: 'Say you are viewing or replying to a ticket, and see who else is (staff)',
        description:
          'Renew every 15 s while the page is open; a mark not renewed within 45 s expires; left removes it. Shared by every instance (Redis when configured, else the database).',
        tags,
        params: TicketIdParams,
        body: PresenceBody,
        response: TicketResponses.presence,
      },
      config: STAFF,
      attachValidation: true,
    },
    async (req) => {
      const ticket = await service.staffTicketOf(deps, ticketIdFrom(req.params.id));
      throwIfInvalid(req);
      const viewers = await markPresence(deps, ticket.id, currentUser(req).id, req.body.state);
      return { success: true, data: { viewers } };
    },
  );
};

export default ticketRoutes;
