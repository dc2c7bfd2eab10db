import type { FastifyPluginAsync } from 'fastify';

// Routes of the notifications area: not built yet.
const routes: FastifyPluginAsync = async () => {};
export default routes;
