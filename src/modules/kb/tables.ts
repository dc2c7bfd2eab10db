import type { Generated } from 'kysely';

export type ArticleStatus = 'draft' | 'published' | 'archived';
export const ARTICLE_STATUSES: readonly ArticleStatus[] = ['draft', 'published', 'archived'];
export type ArticleLang = 'en' | 'fa';

export interface KbCategoriesTable {
  id: Generated<number>;
  slug: string;
  parent_id: number | null;
  name_en: string;
  name_fa: string;
  position: Generated<number>;
  created_at: string;
  updated_at: string;
}

export interface KbTagsTable {
  id: Generated<number>;
  name: string;
  created_at: string;
}

export interface KbArticlesTable {
  id: Generated<number>;
  /** Shared by the English and Persian versions (payments.refund-time): the passage id of the chat's sources. */
  key: string;
  lang: ArticleLang;
  slug: string;
  title: string;
  body: string;
  /** JSON array: the other ways members ask it. */
  questions: string;
  /** JSON array: the app pages or modules it belongs to. */
  pages: string;
  /** JSON array: the keys of the articles a member usually asks about next, in any category. */
  next: string;
  category_id: number | null;
  status: ArticleStatus;
  /** The number of the article's latest revision; an update names the one it edits. */
  revision: number;
  updated_by: number | null;
  created_at: string;
  updated_at: string;
}

export interface KbArticleTagsTable {
  article_id: number;
  tag_id: number;
}

export interface KbRevisionsTable {
  id: Generated<number>;
  article_id: number;
  revision: number;
  action: string;
  /** JSON: the article's fields after this revision (ArticleFields). */
  snapshot: string;
  /** JSON array of the fields this revision changed. */
  changed: string;
  created_by: number | null;
  created_at: string;
}

export interface KbChangesTable {
  id: Generated<number>;
  key: string;
  lang: ArticleLang;
  created_at: string;
}

export interface KbTables {
  kb_categories: KbCategoriesTable;
  kb_tags: KbTagsTable;
  kb_articles: KbArticlesTable;
  kb_article_tags: KbArticleTagsTable;
  kb_revisions: KbRevisionsTable;
  kb_changes: KbChangesTable;
}

/** What an editor writes: an article's own fields. */
export interface ArticleFields {
  key: string;
  lang: ArticleLang;
  slug: string;
  title: string;
  body: string;
  questions: string[];
  pages: string[];
  /** The keys of the articles a member usually asks about after this one (a vague follow-up leans to them). */
  next: string[];
  /** The category's slug. */
  category: string | null;
  tags: string[];
  status: ArticleStatus;
}
