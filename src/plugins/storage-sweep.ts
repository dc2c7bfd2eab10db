// Attachment files (on the disk or in the bucket) a crash left without a row are removed once they
// are old enough (tickets/storage/sweep.ts), once per start of an instance that starts workers;
// the app's close waits for a sweep in progress.
import fp from 'fastify-plugin';
import { startupSweep } from '../modules/tickets/storage/sweep.js';

export default fp(
  async (app) => {
    const { deps } = app;
    if (!deps.startWorkers) return;
    let sweeping: Promise<void> | undefined;
    app.addHook('onReady', async () => {
      sweeping = startupSweep(deps.db, app.attachmentStorage, app.log);
    });
    app.addHook('onClose', async () => sweeping);
  },
  { name: 'storage-sweep', dependencies: ['deps', 'attachment-storage'] },
);
