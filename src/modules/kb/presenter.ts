// The public shapes of the help centre: an article as members read it, a page's summaries and the
// category tree in one language.
import type { ArticleRecord } from './repository.js';
import type { ArticleLang } from './tables.js';
import type { CategoryRecord } from './taxonomy-query.js';

export function helpSummary(a: ArticleRecord) {
  return { key: a.key, slug: a.slug, title: a.title, category: a.category, tags: a.tags, updated_at: a.updated_at };
}

export function helpArticle(a: ArticleRecord, category: CategoryRecord | undefined, otherSlug: string | undefined) {
  return {
    key: a.key,
    lang: a.lang,
    slug: a.slug,
    title: a.title,
    body: a.body,
    category: category ? { slug: category.slug, name: a.lang === 'en' ? category.name_en : category.name_fa } : null,
    tags: a.tags,
    updated_at: a.updated_at,
    other_language: otherSlug ? { lang: (a.lang === 'en' ? 'fa' : 'en') as ArticleLang, slug: otherSlug } : null,
  };
}

/** The tree depth first, siblings by position then id, each with its published articles in the language. */
export function categoryTree(categories: CategoryRecord[], counts: Map<number, number>, lang: ArticleLang) {
  const children = new Map<number | null, CategoryRecord[]>();
  for (const c of categories) children.set(c.parent_id, [...(children.get(c.parent_id) ?? []), c]);
  const slugOf = new Map(categories.map((c) => [c.id, c.slug]));
  const out: Array<{ slug: string; parent: string | null; depth: number; name: string; articles: number }> = [];
  const walk = (parent: number | null, depth: number) => {
    for (const c of children.get(parent) ?? []) {
      out.push({
        slug: c.slug,
        parent: c.parent_id === null ? null : (slugOf.get(c.parent_id) ?? null),
        depth,
        name: lang === 'en' ? c.name_en : c.name_fa,
        articles: counts.get(c.id) ?? 0,
      });
      walk(c.id, depth + 1);
    }
  };
  walk(null, 0);
  return out;
}
