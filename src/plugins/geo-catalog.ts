// The geographic catalogue held in memory (modules/geo/catalog.ts): loaded with the bundled data
// when its tables are empty (unless the app is told not to), built when the app is ready, then
// watched for changes another instance or the importer makes while workers run; stopped on close.
// The geo routes answer from app.geoCatalog, and so may tests.
import fp from 'fastify-plugin';
import { GeoCatalog } from '../modules/geo/catalog.js';
import { loadBundledData } from '../modules/geo/loader.js';

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
      await catalog.rebuild();
      if (deps.startWorkers) catalog.watch();
    });
    app.addHook('onClose', async () => catalog.stop());
  },
  { name: 'geo-catalog', dependencies: ['deps'] },
);
