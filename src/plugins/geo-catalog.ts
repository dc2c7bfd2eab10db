// The geographic catalogue held in memory (modules/geo/catalog.ts): loaded with the bundled data
// when its tables are empty (unless the app is told not to), built when the app is ready (villages soon after it listens), then
// watched for changes another instance or the importer makes while workers run; stopped on close.
// The geo routes answer from app.geoCatalog, and so may tests.
import fp from 'fastify-plugin';
import { GeoCatalog } from '../modules/geo/catalog.js';
import { loadBundledData } from '../modules/geo/loader.js';

const VILLAGES_AFTER_LISTEN_MS = 1_000;

declare module 'fastify' {
  interface FastifyInstance {
    geoCatalog: GeoCatalog;
  }
}

export default fp(
  async (app) => {
    const { deps } = app;
    const catalog = new GeoCatalog(deps.db, app.log);
    app.decorate('geoCatalog', catalog);
    app.addHook('onReady', async () => {
      if (deps.loadGeoData) await loadBundledData(deps.db, deps.dialect, (line) => app.log.info(line));
      await catalog.start();
      if (deps.startWorkers) catalog.watch();
    });
    // The villages' bodies, left out of the start's build, soon after the server first answers.
    app.addHook('onListen', (done) => {
      setTimeout(() => {
        catalog.whenComplete().catch((err: unknown) => app.log.warn({ err }, 'geo: cannot build the villages yet'));
      }, VILLAGES_AFTER_LISTEN_MS).unref();
      done();
    });
    app.addHook('onClose', async () => catalog.stop());
  },
  { name: 'geo-catalog', dependencies: ['deps'] },
);
