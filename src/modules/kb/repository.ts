// Articles, their tags and revisions, and the change log the instances re-index from. Every write
// takes the transaction it belongs to; the service decides what "not there" means.
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';
import { likeContains } from '../../db/like.js';
import type { ArticleFields, ArticleLang, ArticleStatus } from './tables.js';

type Db = Kysely<Database> | Transaction<Database>;

export type { ArticleFields } from './tables.js';

export interface ArticleRecord extends ArticleFields {
  id: number;
  revision: number;
  updated_by: number | null;
  created_at: string;
  updated_at: string;
}

export interface ArticleFilters {
  lang?: ArticleLang;
  status?: ArticleStatus;
  category?: string;
  tag?: string;
  /** Words of the title or key (admin list). */
  search?: string;
  /** Only these keys (the help centre's search), in this order. */
  keys?: string[];
}

function articles(db: Db) {
  return db
    .selectFrom('kb_articles as a')
    .leftJoin('kb_categories as c', 'c.id', 'a.category_id')
    .select([
      'a.id',
      'a.key',
      'a.lang',
      'a.slug',
      'a.title',
      'a.body',
      'a.questions',
      'a.pages',
      'a.next',
      'c.slug as category',
      'a.status',
      'a.revision',
      'a.updated_by',
      'a.created_at',
      'a.updated_at',
    ]);
}

type ArticleRow = Omit<ArticleRecord, 'questions' | 'pages' | 'next' | 'tags'> & {
  questions: string;
  pages: string;
  next: string;
};

async function withTags(db: Db, rows: ArticleRow[]): Promise<ArticleRecord[]> {
  if (rows.length === 0) return [];
  const links = await db
    .selectFrom('kb_article_tags as at')
    .innerJoin('kb_tags as t', 't.id', 'at.tag_id')
    .select(['at.article_id', 't.name'])
    .where(
      'at.article_id',
      'in',
      rows.map((r) => r.id),
    )
    .orderBy('t.name')
    .execute();
  const tags = new Map<number, string[]>();
  for (const { article_id, name } of links) tags.set(article_id, [...(tags.get(article_id) ?? []), name]);
  return rows.map((r) => ({
    ...r,
    questions: JSON.parse(r.questions) as string[],
    pages: JSON.parse(r.pages) as string[],
    next: JSON.parse(r.next) as string[],
    tags: tags.get(r.id) ?? [],
  }));
}

export async function findArticle(db: Db, id: number): Promise<ArticleRecord | undefined> {
  const row = await articles(db).where('a.id', '=', id).executeTakeFirst();
  return row ? (await withTags(db, [row]))[0] : undefined;
}

export async function findArticleByKey(db: Db, key: string, lang: ArticleLang): Promise<ArticleRecord | undefined> {
  const row = await articles(db).where('a.key', '=', key).where('a.lang', '=', lang).executeTakeFirst();
  return row ? (await withTags(db, [row]))[0] : undefined;
}

export async function findArticleBySlug(db: Db, lang: ArticleLang, slug: string): Promise<ArticleRecord | undefined> {
  const row = await articles(db).where('a.lang', '=', lang).where('a.slug', '=', slug).executeTakeFirst();
  return row ? (await withTags(db, [row]))[0] : undefined;
}

/** The other language's slug of each key, for the given published articles. */
export async function otherSlugs(db: Db, key: string, lang: ArticleLang): Promise<string | undefined> {
  const row = await db
    .selectFrom('kb_articles')
    .select('slug')
    .where('key', '=', key)
    .where('lang', '!=', lang)
    .where('status', '=', 'published')
    .executeTakeFirst();
  return row?.slug;
}

function filtered(db: Db, filters: ArticleFilters) {
  let query = articles(db);
  if (filters.lang) query = query.where('a.lang', '=', filters.lang);
  if (filters.status) query = query.where('a.status', '=', filters.status);
  if (filters.category) query = query.where('c.slug', '=', filters.category);
  if (filters.keys) query = query.where('a.key', 'in', filters.keys.length > 0 ? filters.keys : ['']);
  if (filters.tag) {
    const tag = filters.tag;
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('kb_article_tags as at')
          .innerJoin('kb_tags as t', 't.id', 'at.tag_id')
          .select('at.article_id')
          .whereRef('at.article_id', '=', 'a.id')
          .where('t.name', '=', tag),
      ),
    );
  }
  if (filters.search) {
    const pattern = likeContains(filters.search);
    query = query.where((eb) =>
      eb.or([
        eb(sql`lower(a.title)`, 'like', sql`${pattern} escape '\\'`),
        eb(sql`lower(a.key)`, 'like', sql`${pattern} escape '\\'`),
      ]),
    );
  }
  return query;
}

/** One page of the articles matching the filters, by id (or in the order of filters.keys), with the total. */
export async function listArticles(
  db: Db,
  filters: ArticleFilters,
  offset: number,
  limit: number,
): Promise<{ total: number; rows: ArticleRecord[] }> {
  const counted = await filtered(db, filters)
    .clearSelect()
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .executeTakeFirstOrThrow();
  const total = Number(counted.total);
  if (filters.keys) {
    // The order is the assistant's ranking, so the page is cut here.
    const rows = await filtered(db, filters).execute();
    const rank = new Map(filters.keys.map((key, i) => [key, i]));
    const ordered = rows.sort((a, b) => rank.get(a.key)! - rank.get(b.key)! || a.id - b.id);
    return { total, rows: await withTags(db, ordered.slice(offset, offset + limit)) };
  }
  const rows = await filtered(db, filters).orderBy('a.id').offset(offset).limit(limit).execute();
  return { total, rows: await withTags(db, rows) };
}

/** Published articles (all, or of the given keys), by id: what the assistant indexes. */
export async function publishedArticles(db: Db, keys?: Array<{ key: string; lang: ArticleLang }>) {
  let query = articles(db).where('a.status', '=', 'published');
  if (keys) {
    if (keys.length === 0) return [];
    query = query.where((eb) =>
      eb.or(keys.map(({ key, lang }) => eb.and([eb('a.key', '=', key), eb('a.lang', '=', lang)]))),
    );
  }
  return withTags(db, await query.orderBy('a.id').execute());
}

export async function countArticles(db: Db): Promise<number> {
  const row = await db
    .selectFrom('kb_articles')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

type ArticleColumns = Omit<ArticleFields, 'tags' | 'category'> & { category_id: number | null };

function columns(fields: ArticleColumns) {
  return {
    ...fields,
    questions: JSON.stringify(fields.questions),
    pages: JSON.stringify(fields.pages),
    next: JSON.stringify(fields.next),
  };
}

export async function insertArticle(
  trx: Transaction<Database>,
  fields: ArticleColumns,
  actor: number | null,
  now: string,
): Promise<number> {
  const row = await trx
    .insertInto('kb_articles')
    .values({ ...columns(fields), revision: 1, updated_by: actor, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Writes the article's fields as revision `revision`, if it is still at `revision - 1`; false when it moved meanwhile. */
export async function updateArticle(
  trx: Transaction<Database>,
  id: number,
  fields: ArticleColumns,
  revision: number,
  actor: number | null,
  now: string,
): Promise<boolean> {
  const result = await trx
    .updateTable('kb_articles')
    .set({ ...columns(fields), revision, updated_by: actor, updated_at: now })
    .where('id', '=', id)
    .where('revision', '=', revision - 1)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function deleteArticle(trx: Transaction<Database>, id: number): Promise<void> {
  await trx.deleteFrom('kb_articles').where('id', '=', id).execute();
}

/** Links the article to exactly these tags, creating the tags it names for the first time. */
export async function setArticleTags(trx: Transaction<Database>, articleId: number, names: string[], now: string) {
  await trx.deleteFrom('kb_article_tags').where('article_id', '=', articleId).execute();
  if (names.length === 0) return;
  const known = await trx.selectFrom('kb_tags').select(['id', 'name']).where('name', 'in', names).execute();
  const missing = names.filter((n) => !known.some((k) => k.name === n));
  if (missing.length > 0)
    known.push(
      ...(await trx
        .insertInto('kb_tags')
        .values(missing.map((name) => ({ name, created_at: now })))
        .returning(['id', 'name'])
        .execute()),
    );
  await trx
    .insertInto('kb_article_tags')
    .values(known.map((tag) => ({ article_id: articleId, tag_id: tag.id })))
    .execute();
}

export {
  changesAfter,
  insertRevision,
  isUniqueViolation,
  KB_CHANNEL,
  lastChange,
  listRevisions,
  recordChange,
  type RevisionRecord,
} from './changes-query.js';
