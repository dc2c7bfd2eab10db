// The staff console's endpoints (under /api/admin): the queue, the ticket as staff see it, notes,
// presence, bulk actions, saved replies, reports, the CSV export and the live stream.
import type { FastifyPluginAsync } from 'fastify';
import actRoutes from './act-routes.js';
import queueRoutes from './queue-routes.js';
import reportRoutes from './report-routes.js';
import streamRoutes from './stream-routes.js';
import ticketRoutes from './ticket-routes.js';

const routes: FastifyPluginAsync = async (app) => {
  await app.register(queueRoutes);
  await app.register(ticketRoutes);
  await app.register(actRoutes);
  await app.register(reportRoutes);
  await app.register(streamRoutes);
};

export default routes;
