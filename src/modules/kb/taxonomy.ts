// The rules of categories (a tree: no category under itself, none deleted while it holds articles
// or subcategories) and tags (unique names; deleting one takes it off its articles).
import type { Kysely } from 'kysely';
import { businessRule, invalidFields, msg, notFound } from '../../core/errors.js';
import type { Database } from '../../db/schema.js';
import { isUniqueViolation } from './repository.js';
import * as q from './taxonomy-query.js';
import type { CategoryFields, CategoryRecord, TagRecord } from './taxonomy-query.js';
import './messages.js';

type Db = Kysely<Database>;

export type CategoryInput = Omit<CategoryFields, 'parent_id' | 'position'> &
  Partial<Pick<CategoryFields, 'parent_id' | 'position'>>;

export async function categoryOf(db: Db, id: number): Promise<CategoryRecord> {
  const category = await q.findCategory(db, id);
  if (!category) throw notFound(msg('kb.category_not_found'));
  return category;
}

export const categories = (db: Db) => q.allCategories(db);

/** Refuses a parent that does not exist, or that is the category itself or one of its descendants. */
async function checkParent(db: Db, id: number | undefined, parentId: number | null): Promise<void> {
  if (parentId === null) return;
  const all = await q.allCategories(db);
  const byId = new Map(all.map((c) => [c.id, c]));
  if (!byId.has(parentId)) throw invalidFields({ parent_id: msg('kb.category_unknown') });
  for (let at: number | null = parentId; at !== null; at = byId.get(at)?.parent_id ?? null)
    if (at === id) throw invalidFields({ parent_id: msg('kb.category_parent_loop') });
}

async function saved<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw invalidFields({ slug: msg('kb.category_slug_taken') });
    throw error;
  }
}

export async function createCategory(db: Db, input: CategoryInput): Promise<CategoryRecord> {
  const fields = { parent_id: null, position: 0, ...input };
  await checkParent(db, undefined, fields.parent_id);
  if (await q.findCategoryBySlug(db, fields.slug)) throw invalidFields({ slug: msg('kb.category_slug_taken') });
  const id = await saved(() => q.insertCategory(db, fields, new Date().toISOString()));
  return categoryOf(db, id);
}

export async function updateCategory(db: Db, id: number, input: CategoryInput): Promise<CategoryRecord> {
  const current = await categoryOf(db, id);
  const fields = { parent_id: current.parent_id, position: current.position, ...input };
  await checkParent(db, id, fields.parent_id);
  const holder = await q.findCategoryBySlug(db, fields.slug);
  if (holder && holder.id !== id) throw invalidFields({ slug: msg('kb.category_slug_taken') });
  await saved(() => q.updateCategory(db, id, fields, new Date().toISOString()));
  return categoryOf(db, id);
}

export async function deleteCategory(db: Db, id: number): Promise<void> {
  await categoryOf(db, id);
  if (await q.categoryInUse(db, id)) throw businessRule(msg('kb.category_in_use'));
  await q.deleteCategory(db, id);
}

export const tags = (db: Db) => q.allTags(db);

export async function tagOf(db: Db, id: number): Promise<TagRecord> {
  const tag = (await q.allTags(db)).find((t) => t.id === id);
  if (!tag) throw notFound(msg('kb.tag_not_found'));
  return tag;
}

export async function createTag(db: Db, name: string): Promise<TagRecord> {
  if (await q.findTag(db, name)) throw invalidFields({ name: msg('kb.tag_taken') });
  try {
    return await tagOf(db, await q.insertTag(db, name, new Date().toISOString()));
  } catch (error) {
    if (isUniqueViolation(error)) throw invalidFields({ name: msg('kb.tag_taken') });
    throw error;
  }
}

export async function deleteTag(db: Db, id: number): Promise<void> {
  await tagOf(db, id);
  await db.transaction().execute((trx) => q.deleteTag(trx, id));
}
