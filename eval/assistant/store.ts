// The knowledge base the evaluation measures: the one the service answers from, read from the
// database. A scratch SQLite store gets the bundled Markdown imported as on a first start, and
// the index is built from its published articles (src/modules/kb/knowledge-feed.ts).
import { scratchDatabase } from '../../harness/database.js';
import type { KnowledgeBase } from '../../src/modules/assistant/knowledge.js';
import { knowledgeFromStore } from '../../src/modules/kb/knowledge-feed.js';

export async function storeKnowledgeBase(): Promise<KnowledgeBase> {
  const store = await scratchDatabase({ dialect: 'sqlite', label: 'eval' });
  try {
    return (await knowledgeFromStore(store.db)).knowledge;
  } finally {
    await store.destroy();
  }
}
