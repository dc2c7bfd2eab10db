// app.deps, what every feature module gets: the configuration, the database (opened here unless
// the caller passes one, and then closed with the app) and the Redis client. Registered before
// every plugin that uses them, so its onClose runs last: workers stop before the database closes.
import fp from 'fastify-plugin';
import type { Config } from '../config.js';
import { createDatabase, type DatabaseHandle } from '../db/index.js';
import type { AppDeps } from '../core/deps.js';

export interface DepsOptions {
  config: Config;
  database?: DatabaseHandle;
  startWorkers: boolean;
  loadGeoData: boolean;
}

export default fp<DepsOptions>(
  async (app, options) => {
    const { config } = options;
    const database = options.database ?? createDatabase(config);
    if (!options.database) app.addHook('onClose', async () => database.close());
    const deps: AppDeps = {
      config,
      db: database.db,
      dialect: database.dialect,
      database,
      redis: app.redis,
      startWorkers: options.startWorkers,
      loadGeoData: options.loadGeoData,
    };
    app.decorate('deps', deps);
  },
  { name: 'deps', dependencies: ['redis'] },
);
