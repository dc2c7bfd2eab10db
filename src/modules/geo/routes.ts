import type { FastifyPluginAsync } from 'fastify';

// Routes of the geo area: not built yet.
const routes: FastifyPluginAsync = async () => {};
export default routes;
