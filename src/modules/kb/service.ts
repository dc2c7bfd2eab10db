// The rules of articles: who wrote which revision, optimistic concurrency (an edit names the
// revision it was made on), unique keys and slugs per language, known categories, and a change
// record in the same transaction as every write so each instance re-indexes what changed.
import type { Kysely, Transaction } from 'kysely';
import { conflict, invalidFields, msg, notFound } from '../../core/errors.js';
import type { Database } from '../../db/schema.js';
import * as repo from './repository.js';
import type { ArticleFields, ArticleFilters, ArticleRecord, RevisionRecord } from './repository.js';
import { bodyFault } from './rules.js';
import type { ArticleStatus } from './tables.js';
import { findCategoryBySlug } from './taxonomy-query.js';
import './messages.js';

type Db = Kysely<Database>;
/** The user making the change (null: the bundled content or a CLI import). */
export type Actor = number | null;

export type ArticleInput = Omit<ArticleFields, 'questions' | 'pages' | 'next' | 'tags' | 'category' | 'status'> &
  Partial<Pick<ArticleFields, 'questions' | 'pages' | 'next' | 'tags' | 'category' | 'status'>>;
export type ArticleChanges = Partial<Omit<ArticleFields, 'key' | 'lang' | 'status'>> & { revision: number };

const FIELDS: Array<keyof ArticleFields> = [
  'slug',
  'title',
  'body',
  'questions',
  'category',
  'tags',
  'pages',
  'next',
  'status',
];

/** The fields as the Markdown files keep them, so an export read back changes nothing. */
export function normalized(fields: ArticleFields): ArticleFields {
  const clean = (values: string[]) => values.map((v) => v.trim()).filter(Boolean);
  return {
    ...fields,
    title: fields.title.trim(),
    body: fields.body
      .replace(/\r\n?/g, '\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim(),
    questions: clean(fields.questions),
    pages: clean(fields.pages),
    // A revision written before articles had next steps has none.
    next: clean(fields.next ?? []),
    tags: [...new Set(clean(fields.tags))].sort(),
  };
}

export function fieldsOf(article: ArticleFields): ArticleFields {
  const { key, lang, slug, title, body, questions, pages, next, category, tags, status } = article;
  return { key, lang, slug, title, body, questions, pages, next, category, tags, status };
}

export function changedFields(before: ArticleFields | undefined, after: ArticleFields): string[] {
  if (!before) return ['key', 'lang', ...FIELDS];
  return FIELDS.filter((f) => JSON.stringify(before[f]) !== JSON.stringify(after[f]));
}

export async function articleOf(db: Db, id: number): Promise<ArticleRecord> {
  const article = await repo.findArticle(db, id);
  if (!article) throw notFound(msg('kb.article_not_found'));
  return article;
}

export async function listForStaff(db: Db, filters: ArticleFilters, page: number, perPage: number) {
  return repo.listArticles(db, filters, (page - 1) * perPage, perPage);
}

/**
 * Writes `next` as the article's new revision (a new article when `current` is undefined), in the
 * caller's transaction: checks, the row, its tags, the revision and the change record.
 */
export async function writeArticle(
  trx: Transaction<Database>,
  actor: Actor,
  current: ArticleRecord | undefined,
  next: ArticleFields,
  action: string,
): Promise<number> {
  const now = new Date().toISOString();
  const fault = bodyFault(next.body);
  if (fault) throw invalidFields({ body: msg(`kb.body_${fault}`) });
  let categoryId: number | null = null;
  if (next.category !== null) {
    const category = await findCategoryBySlug(trx, next.category);
    if (!category) throw invalidFields({ category: msg('kb.category_unknown') });
    categoryId = category.id;
  }
  if (!current && (await repo.findArticleByKey(trx, next.key, next.lang)))
    throw invalidFields({ key: msg('kb.key_taken') });
  const holder = await repo.findArticleBySlug(trx, next.lang, next.slug);
  if (holder && holder.id !== current?.id) throw invalidFields({ slug: msg('kb.slug_taken') });
  const { tags, category: _categorySlug, ...own } = next;
  const columns = { ...own, category_id: categoryId };
  let id: number;
  let revision = 1;
  if (current) {
    id = current.id;
    revision = current.revision + 1;
    if (!(await repo.updateArticle(trx, id, columns, revision, actor, now)))
      throw stale(await articleOf(trx, id), current.revision);
  } else id = await repo.insertArticle(trx, columns, actor, now);
  await repo.setArticleTags(trx, id, tags, now);
  await repo.insertRevision(
    trx,
    id,
    { revision, action, snapshot: next, changed: changedFields(current, next), created_by: actor },
    now,
  );
  await repo.recordChange(trx, next.key, next.lang, now);
  return id;
}

function stale(current: ArticleRecord, revision: number) {
  return conflict(msg('kb.stale_revision', { revision, current: current.revision }), current);
}

function expectRevision(current: ArticleRecord, revision: number | undefined): void {
  if (revision !== undefined && revision !== current.revision) throw stale(current, revision);
}

export async function createArticle(db: Db, actor: Actor, input: ArticleInput): Promise<ArticleRecord> {
  const fields = normalized({
    questions: [],
    pages: [],
    next: [],
    tags: [],
    category: null,
    status: 'draft',
    ...input,
  });
  try {
    const id = await db.transaction().execute((trx) => writeArticle(trx, actor, undefined, fields, 'create'));
    return await articleOf(db, id);
  } catch (error) {
    if (!repo.isUniqueViolation(error)) throw error;
    // Another editor took the key or the slug between the check and the write.
    const taken = await repo.findArticleByKey(db, fields.key, fields.lang);
    throw invalidFields(taken ? { key: msg('kb.key_taken') } : { slug: msg('kb.slug_taken') });
  }
}

/** Applies changes to the article if it is still at the revision they were made on; 409 with the current article otherwise. */
export async function updateArticle(db: Db, actor: Actor, id: number, changes: ArticleChanges): Promise<ArticleRecord> {
  await guardSlug(db, async (trx) => {
    const current = await articleOf(trx, id);
    expectRevision(current, changes.revision);
    const { revision: _revision, ...edited } = changes;
    const next = normalized({ ...fieldsOf(current), ...edited });
    if (changedFields(current, next).length > 0) await writeArticle(trx, actor, current, next, 'update');
  });
  return articleOf(db, id);
}

export async function changeStatus(
  db: Db,
  actor: Actor,
  id: number,
  status: ArticleStatus,
  revision?: number,
): Promise<ArticleRecord> {
  await db.transaction().execute(async (trx) => {
    const current = await articleOf(trx, id);
    expectRevision(current, revision);
    if (current.status !== status)
      await writeArticle(
        trx,
        actor,
        current,
        { ...fieldsOf(current), status },
        status === 'published' ? 'publish' : 'archive',
      );
  });
  return articleOf(db, id);
}

export async function revisionsOf(db: Db, id: number): Promise<RevisionRecord[]> {
  await articleOf(db, id);
  return repo.listRevisions(db, id);
}

/** Makes an earlier revision's content (not its status) the article's next revision. */
export async function restoreRevision(
  db: Db,
  actor: Actor,
  id: number,
  revisionNumber: number,
  expected?: number,
): Promise<ArticleRecord> {
  await guardSlug(db, async (trx) => {
    const current = await articleOf(trx, id);
    expectRevision(current, expected);
    const [revision] = await repo.listRevisions(trx, id, revisionNumber);
    if (!revision) throw notFound(msg('kb.revision_not_found'));
    const next = normalized({ ...revision.snapshot, key: current.key, lang: current.lang, status: current.status });
    await writeArticle(trx, actor, current, next, 'restore');
  });
  return articleOf(db, id);
}

/** Runs a write; a slug taken by a concurrent write is the slug's 422. */
async function guardSlug(db: Db, write: (trx: Transaction<Database>) => Promise<void>): Promise<void> {
  try {
    await db.transaction().execute(write);
  } catch (error) {
    if (repo.isUniqueViolation(error)) throw invalidFields({ slug: msg('kb.slug_taken') });
    throw error;
  }
}

export async function removeArticle(db: Db, id: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const current = await articleOf(trx, id);
    await repo.deleteArticle(trx, id);
    await repo.recordChange(trx, current.key, current.lang, new Date().toISOString());
  });
}
