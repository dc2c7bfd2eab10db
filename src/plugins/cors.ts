// Cross-origin calls from the front-ends named in CORS_ORIGINS ('*' for any; none: CORS off).
import cors from '@fastify/cors';
import fp from 'fastify-plugin';

export default fp(
  async (app) => {
    const origins = app.deps.config.CORS_ORIGINS;
    await app.register(cors, {
      origin: origins === '*' ? true : origins.length ? origins : false,
      methods: ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'],
      allowedHeaders: ['Authorization', 'Content-Type', 'Accept-Language', 'If-None-Match'],
      exposedHeaders: ['Content-Disposition', 'Retry-After', 'X-Request-Id', 'ETag'],
      maxAge: 600,
    });
  },
  { name: 'cors', dependencies: ['deps'] },
);
