// What the assistant reads from the knowledge base: each published article as one passage (its
// title the question, its questions the alternates, its body the answer, its pages and next steps
// the passage's), one
// source per article and language. At start the whole store is indexed at once (the bundled
// Markdown is imported first when the store is empty); afterwards only the articles named by the
// change log are re-read and replaced in the index.
import { performance } from 'node:perf_hooks';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import {
  DEFAULT_KNOWLEDGE_DIR,
  DEFAULT_RANKING,
  KnowledgeBase,
  loadOutside,
  loadThesaurus,
  type Outside,
  type Passage,
  type PassageSource,
  type Thesaurus,
} from '../assistant/knowledge.js';
import { changesAfter, countArticles, lastChange, publishedArticles, type ArticleRecord } from './repository.js';
import type { ArticleLang } from './tables.js';
import { importFolder } from './transfer.js';

/** The index source of one article in one language. */
export const articleSource = (key: string, lang: ArticleLang): string => `article:${lang}:${key}`;

export function passageOf(article: ArticleRecord): Passage {
  return {
    id: article.key,
    lang: article.lang,
    // The key's first part (payments in payments.refund-time): suggestions offer the same topic.
    topic: article.key.split('.')[0]!,
    question: article.title,
    alternates: article.questions,
    answer: article.body,
    ...(article.pages.length > 0 ? { pages: article.pages } : {}),
    ...(article.next.length > 0 ? { next: article.next } : {}),
  };
}

/** Imports the bundled Markdown as published articles when the store holds no article at all. */
export async function seedWhenEmpty(db: Kysely<Database>, dir = DEFAULT_KNOWLEDGE_DIR): Promise<boolean> {
  if ((await countArticles(db)) > 0) return false;
  try {
    await importFolder(db, dir, null);
    return true;
  } catch (error) {
    // Another instance starting on the same empty store seeded it first.
    if ((await countArticles(db)) > 0) return false;
    throw error;
  }
}

/** What an index is built with besides the passages (the key of a kept index hashes it: index-snapshot.ts). */
export interface IndexInputs {
  thesaurus: Thesaurus;
  outside: Outside;
}

export const indexInputs = (): IndexInputs => ({ thesaurus: loadThesaurus(), outside: loadOutside() });

/**
 * The store's published articles indexed, with the passages of further sources (the uploaded
 * documents) in the same build, and the last change already in that index.
 */
export async function knowledgeFromStore(
  db: Kysely<Database>,
  more: Array<{ source: string; passages: Passage[] }> = [],
  inputs: IndexInputs = indexInputs(),
): Promise<{ knowledge: KnowledgeBase; seen: number; buildMs: number }> {
  await seedWhenEmpty(db);
  // Read before the articles: a change made while they are read is applied again, never missed.
  const seen = await lastChange(db);
  const articles = await publishedArticles(db);
  const sourceOf = new Map<Passage, string>();
  for (const { source, passages } of more) for (const passage of passages) sourceOf.set(passage, source);
  const passages = [...articles.map(passageOf), ...sourceOf.keys()];
  const started = performance.now();
  const knowledge = new KnowledgeBase(
    passages,
    inputs.thesaurus,
    DEFAULT_RANKING,
    inputs.outside,
    (p) => sourceOf.get(p) ?? articleSource(p.id, p.lang),
  );
  return { knowledge, seen, buildMs: performance.now() - started };
}

/**
 * Applies the changes logged after `seen` to the index: each changed article is read again and
 * its passage replaced, or removed when it is no longer published. Returns the last change applied.
 */
export async function applyChanges(db: Kysely<Database>, index: PassageSource, seen: number): Promise<number> {
  let last = seen;
  for (;;) {
    const changes = await changesAfter(db, last);
    if (changes.length === 0) return last;
    const pairs = new Map(changes.map((c) => [articleSource(c.key, c.lang), { key: c.key, lang: c.lang }]));
    const published = await publishedArticles(db, [...pairs.values()]);
    const bySource = new Map(published.map((a) => [articleSource(a.key, a.lang), a]));
    for (const source of pairs.keys()) {
      const article = bySource.get(source);
      if (article) index.add(source, [passageOf(article)]);
      else index.remove(source);
    }
    last = changes[changes.length - 1]!.id;
  }
}
