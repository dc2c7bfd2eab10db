// The assistant's knowledge base, read from the articles in the database (the bundled Markdown is
// imported first when there is none) and the uploaded documents, indexed in one build at start, or
// read from the index the last start kept in DATA_DIR (modules/kb/kept-index.ts); then kept in step
// with every edit made anywhere, within KB_POLL_MS on SQLite and at once on PostgreSQL
// (modules/kb/live.ts), and with the documents by modules/kb-files/document-index.ts. Both catch
// up before the server listens (onReady), which brings a kept index to the store of the moment.
import path from 'node:path';
import fp from 'fastify-plugin';
import type { KnowledgeBase } from '../modules/assistant/knowledge.js';
import { SNAPSHOT_FILE } from '../modules/kb/index-snapshot.js';
import { indexAtStart, indexKeeper } from '../modules/kb/kept-index.js';
import { KnowledgeWatch } from '../modules/kb/live.js';

declare module 'fastify' {
  interface FastifyInstance {
    knowledge: KnowledgeBase;
    knowledgeWatch: KnowledgeWatch;
    /** The uploaded documents the knowledge base holds, by file id: their versions (kept in step by DocumentIndex). */
    knowledgeDocuments: Map<number, string>;
  }
}

export default fp(
  async (app) => {
    const { deps } = app;
    const file = path.join(deps.config.DATA_DIR, SNAPSHOT_FILE);
    const start = await indexAtStart(deps.db, file, app.log);
    const { knowledge } = start;
    const pool = deps.database.pool;
    const watch = new KnowledgeWatch(deps.db, knowledge, start.seen, app.log, pool ? pool.options : undefined);
    const keeper = indexKeeper({ db: deps.db, file, start, watch, log: app.log });
    app.decorate('knowledge', knowledge);
    app.decorate('knowledgeWatch', watch);
    app.decorate('knowledgeDocuments', start.held);
    app.addHook('onReady', async () => watch.start());
    app.addHook('onClose', async () => {
      await watch.stop();
      await keeper.keep();
    });
  },
  { name: 'knowledge-base', dependencies: ['deps'] },
);
