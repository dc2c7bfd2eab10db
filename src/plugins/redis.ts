// The shared Redis client when REDIS_URL is set (rate limits shared between instances); `app.redis`
// is undefined otherwise. Disconnected when the app closes, after the plugins that use it.
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import type { Config } from '../config.js';

declare module 'fastify' {
  interface FastifyInstance {
    redis: Redis | undefined;
  }
}

export default fp<{ config: Config }>(
  async (app, { config }) => {
    // The client library is loaded only when it is used (docs/performance.md, "Start-up").
    const redis = config.REDIS_URL
      ? new (await import('ioredis')).Redis(config.REDIS_URL, {
          maxRetriesPerRequest: 1,
          enableOfflineQueue: false,
          connectTimeout: 2_000,
        })
      : undefined;
    redis?.on('error', (err) => app.log.warn({ err }, 'redis error'));
    app.decorate('redis', redis);
    app.addHook('onClose', async () => redis?.disconnect());
  },
  { name: 'redis' },
);
