// The OpenAPI document (http/openapi.ts completes what the routes' schemas say) at /openapi.json
// and the browsable reference at /docs. Registered before the routes: it sees each one as it is added.
import swaggerUi from '@fastify/swagger-ui';
import fp from 'fastify-plugin';
import { registerOpenApi } from '../http/openapi.js';
import { modules } from '../modules/index.js';

export default fp(
  async (app) => {
    await registerOpenApi(
      app,
      app.deps.config,
      modules.flatMap((module) => module.openApiTags),
    );
    await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: true });
    app.get('/openapi.json', { schema: { hide: true }, config: { rateLimit: false } }, async () => app.swagger());
  },
  { name: 'swagger', dependencies: ['deps'] },
);
