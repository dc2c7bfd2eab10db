// The assistant's knowledge base, read from the articles in the database (the bundled Markdown is
// imported first when there is none) and the uploaded documents, indexed in one build at start;
// then kept in step with every edit made anywhere, within KB_POLL_MS on SQLite and at once on
// PostgreSQL (modules/kb/live.ts), and with the documents by modules/kb-files/document-index.ts.
import { performance } from 'node:perf_hooks';
import fp from 'fastify-plugin';
import type { KnowledgeBase } from '../modules/assistant/knowledge.js';
import { documentSources } from '../modules/kb-files/document-index.js';
import { knowledgeFromStore } from '../modules/kb/knowledge-feed.js';
import { KnowledgeWatch } from '../modules/kb/live.js';

declare module 'fastify' {
  interface FastifyInstance {
    knowledge: KnowledgeBase;
    knowledgeWatch: KnowledgeWatch;
    /** The uploaded documents the knowledge base was built with, by file id: their versions. */
    knowledgeDocuments: ReadonlyMap<number, string>;
  }
}

export default fp(
  async (app) => {
    const { deps } = app;
    // The articles and the uploaded documents indexed in one build; the log says what the start
    // spent reading the store and building the index (at a large size, most of the start).
    const started = performance.now();
    const documents = await documentSources(deps.db);
    const { knowledge, seen, buildMs } = await knowledgeFromStore(deps.db, documents.sources);
    app.log.info(
      {
        passages: { en: knowledge.count('en'), fa: knowledge.count('fa') },
        documents: documents.sources.length,
        readMs: Math.round(performance.now() - started - buildMs),
        buildMs: Math.round(buildMs),
      },
      'knowledge: index built',
    );
    const pool = deps.database.pool;
    const watch = new KnowledgeWatch(deps.db, knowledge, seen, app.log, pool ? pool.options : undefined);
    app.decorate('knowledge', knowledge);
    app.decorate('knowledgeWatch', watch);
    app.decorate('knowledgeDocuments', documents.held);
    app.addHook('onReady', async () => watch.start());
    app.addHook('onClose', async () => watch.stop());
  },
  { name: 'knowledge-base', dependencies: ['deps'] },
);
