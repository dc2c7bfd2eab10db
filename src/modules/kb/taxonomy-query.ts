// Categories (a tree) and tags: their rows, and how many articles each holds.
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { ArticleLang } from './tables.js';

type Db = Kysely<Database> | Transaction<Database>;

export interface CategoryRecord {
  id: number;
  slug: string;
  parent_id: number | null;
  name_en: string;
  name_fa: string;
  position: number;
  created_at: string;
  updated_at: string;
}

export type CategoryFields = Pick<CategoryRecord, 'slug' | 'parent_id' | 'name_en' | 'name_fa' | 'position'>;

const CATEGORY_COLUMNS = [
  'id',
  'slug',
  'parent_id',
  'name_en',
  'name_fa',
  'position',
  'created_at',
  'updated_at',
] as const;

export async function allCategories(db: Db): Promise<CategoryRecord[]> {
  return db.selectFrom('kb_categories').select(CATEGORY_COLUMNS).orderBy('position').orderBy('id').execute();
}

export async function findCategory(db: Db, id: number): Promise<CategoryRecord | undefined> {
  return db.selectFrom('kb_categories').select(CATEGORY_COLUMNS).where('id', '=', id).executeTakeFirst();
}

export async function findCategoryBySlug(db: Db, slug: string): Promise<CategoryRecord | undefined> {
  return db.selectFrom('kb_categories').select(CATEGORY_COLUMNS).where('slug', '=', slug).executeTakeFirst();
}

export async function insertCategory(db: Db, fields: CategoryFields, now: string): Promise<number> {
  const row = await db
    .insertInto('kb_categories')
    .values({ ...fields, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateCategory(db: Db, id: number, fields: CategoryFields, now: string): Promise<void> {
  await db
    .updateTable('kb_categories')
    .set({ ...fields, updated_at: now })
    .where('id', '=', id)
    .execute();
}

export async function deleteCategory(db: Db, id: number): Promise<void> {
  await db.deleteFrom('kb_categories').where('id', '=', id).execute();
}

/** Whether any article or subcategory still points at the category. */
export async function categoryInUse(db: Db, id: number): Promise<boolean> {
  const article = await db.selectFrom('kb_articles').select('id').where('category_id', '=', id).executeTakeFirst();
  if (article) return true;
  const child = await db.selectFrom('kb_categories').select('id').where('parent_id', '=', id).executeTakeFirst();
  return child !== undefined;
}

/** Per category id: its published articles in the language. */
export async function publishedCounts(db: Db, lang: ArticleLang): Promise<Map<number, number>> {
  const rows = await db
    .selectFrom('kb_articles')
    .select(['category_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('status', '=', 'published')
    .where('lang', '=', lang)
    .where('category_id', 'is not', null)
    .groupBy('category_id')
    .execute();
  return new Map(rows.map((r) => [r.category_id!, Number(r.n)]));
}

export interface TagRecord {
  id: number;
  name: string;
  articles: number;
}

export async function allTags(db: Db): Promise<TagRecord[]> {
  const rows = await db
    .selectFrom('kb_tags as t')
    .leftJoin('kb_article_tags as at', 'at.tag_id', 't.id')
    .select(['t.id', 't.name', (eb) => eb.fn.count<number>('at.article_id').as('articles')])
    .groupBy(['t.id', 't.name'])
    .orderBy('t.name')
    .execute();
  return rows.map((r) => ({ ...r, articles: Number(r.articles) }));
}

export async function findTag(db: Db, name: string): Promise<{ id: number; name: string } | undefined> {
  return db.selectFrom('kb_tags').select(['id', 'name']).where('name', '=', name).executeTakeFirst();
}

export async function insertTag(db: Db, name: string, now: string): Promise<number> {
  const row = await db
    .insertInto('kb_tags')
    .values({ name, created_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Removes the tag and its links; returns the ids of the articles that carried it. */
export async function deleteTag(trx: Transaction<Database>, id: number): Promise<number[]> {
  const links = await trx.selectFrom('kb_article_tags').select('article_id').where('tag_id', '=', id).execute();
  await trx.deleteFrom('kb_tags').where('id', '=', id).execute();
  return links.map((l) => l.article_id);
}
