// app.attachmentStorage: where ticket attachments live (the disk under DATA_DIR, or the S3 bucket
// STORAGE_URL names), built once per app and shared by the ticket routes and the storage sweep;
// its connections are released when the app closes, after the sweep that uses it has stopped.
import fp from 'fastify-plugin';
import { createStorage } from '../modules/tickets/storage/create.js';
import type { AttachmentStorage } from '../modules/tickets/storage/index.js';

declare module 'fastify' {
  interface FastifyInstance {
    attachmentStorage: AttachmentStorage;
  }
}

export default fp(
  async (app) => {
    const storage = await createStorage(app.deps.config, app.log);
    app.decorate('attachmentStorage', storage);
    app.addHook('onClose', async () => storage.close());
  },
  { name: 'attachment-storage', dependencies: ['deps'] },
);
