// The outbox sender (mail/worker.ts) in every instance that starts workers: it begins when the app
// is ready and stops, waiting for a send in progress up to a bound, before the database closes.
import fp from 'fastify-plugin';
import { transportFor } from '../mail/transport.js';
import { MailWorker } from '../mail/worker.js';

export default fp(
  async (app) => {
    const { deps } = app;
    if (!deps.startWorkers) return;
    const worker = new MailWorker(deps.db, transportFor(deps.config), deps.config.MAIL_FROM, app.log);
    app.addHook('onReady', async () => worker.start());
    app.addHook('onClose', async () => worker.stop());
  },
  { name: 'mail-worker', dependencies: ['deps'] },
);
