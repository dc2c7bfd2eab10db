// The assistant's knowledge base, read from the articles in the database (the bundled Markdown is
// imported first when there is none) and indexed once at start; then kept in step with every edit
// made anywhere, within KB_POLL_MS on SQLite and at once on PostgreSQL (modules/kb/live.ts).
import fp from 'fastify-plugin';
import type { KnowledgeBase } from '../modules/assistant/knowledge.js';
import { knowledgeFromStore } from '../modules/kb/knowledge-feed.js';
import { KnowledgeWatch } from '../modules/kb/live.js';

declare module 'fastify' {
  interface FastifyInstance {
    knowledge: KnowledgeBase;
    knowledgeWatch: KnowledgeWatch;
  }
}

export default fp(
  async (app) => {
    const { deps } = app;
    const { knowledge, seen } = await knowledgeFromStore(deps.db);
    const pool = deps.database.pool;
    const watch = new KnowledgeWatch(deps.db, knowledge, seen, app.log, pool ? pool.options : undefined);
    app.decorate('knowledge', knowledge);
    app.decorate('knowledgeWatch', watch);
    app.addHook('onReady', async () => watch.start());
    app.addHook('onClose', async () => watch.stop());
  },
  { name: 'knowledge-base', dependencies: ['deps'] },
);
