// The public help centre: published articles only, in one language; a search goes through the
// assistant's own retrieval, so colloquial Persian, Finglish or a typo finds what the chat would.
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { msg, notFound } from '../../core/errors.js';
import type { Database } from '../../db/schema.js';
import type { KnowledgeBase } from '../assistant/knowledge.js';
import { isPublic } from './access.js';
import { categoryTree, helpArticle, helpSummary } from './presenter.js';
import { findArticleBySlug, listArticles, otherSlugs } from './repository.js';
import type { ArticleLang } from './tables.js';
import { allCategories, findCategoryBySlug, publishedCounts } from './taxonomy-query.js';
import './messages.js';

type Db = Kysely<Database>;
const PERSIAN = /[\u0600-\u06FF]/;
/** A passage counts as found when the search holds one of its words or reads much like one of its phrasings. */
const MIN_SIMILARITY = 0.3;

/** The article keys the assistant's retrieval finds for the words, best first. */
export function rankedKeys(knowledge: KnowledgeBase, words: string, lang: ArticleLang): string[] {
  const text = lang === 'fa' && !PERSIAN.test(words) ? knowledge.readLatin(words) : words;
  const { hits } = knowledge.match(text, lang, knowledge.count(lang));
  return hits.filter((h) => h.coverage > 0 || h.similarity >= MIN_SIMILARITY).map((h) => h.passage.id);
}

export interface HelpQuery {
  lang: ArticleLang;
  q?: string;
  category?: string;
  tag?: string;
}

export async function helpList(db: Db, knowledge: KnowledgeBase, query: HelpQuery, page: number, perPage: number) {
  const words = query.q?.trim();
  const { total, rows } = await listArticles(
    db,
    {
      lang: query.lang,
      status: 'published',
      category: query.category,
      tag: query.tag,
      ...(words ? { keys: rankedKeys(knowledge, words, query.lang) } : {}),
    },
    (page - 1) * perPage,
    perPage,
  );
  return { total, data: rows.map(helpSummary) };
}

export async function helpCategories(db: Db, lang: ArticleLang) {
  return categoryTree(await allCategories(db), await publishedCounts(db, lang), lang);
}

/** One published article and its entity tag (a hash of what is sent); 404 for drafts, archived and unknown slugs. */
export async function helpArticleBySlug(db: Db, lang: ArticleLang, slug: string) {
  const article = await findArticleBySlug(db, lang, slug);
  if (!article || !isPublic(article)) throw notFound(msg('kb.article_not_found'));
  const category = article.category ? await findCategoryBySlug(db, article.category) : undefined;
  const data = helpArticle(article, category, await otherSlugs(db, article.key, lang));
  const etag = `"${createHash('sha256').update(JSON.stringify(data)).digest('base64url').slice(0, 27)}"`;
  return { data, etag };
}
