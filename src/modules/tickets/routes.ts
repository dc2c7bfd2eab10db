import type { FastifyPluginAsync } from 'fastify';

// Routes of the tickets area: not built yet.
const routes: FastifyPluginAsync = async () => {};
export default routes;
