// kb:import and kb:export: the knowledge base to and from a folder of Markdown files (markdown.ts)
// plus categories.json (the tree: parents, order, both names). An import reads and checks every
// file before it writes anything, then writes in one transaction and says what it changed; an
// article the folder does not mention is left as it is.
import fs from 'node:fs';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { FILE_NAME, formatArticleFile, MalformedFile, type ParsedFile, parseArticleFile } from './markdown.js';
import { listArticles } from './repository.js';
import { type Actor, changedFields, fieldsOf, normalized, writeArticle } from './service.js';
import * as q from './taxonomy-query.js';
import { findArticleByKey } from './repository.js';

/** Articles without a category live in this file name. */
export const NO_CATEGORY = 'uncategorized';
const CATEGORIES_FILE = 'categories.json';

export interface ImportReport {
  files: number;
  created: number;
  updated: number;
  unchanged: number;
  categories_created: number;
  categories_updated: number;
}

interface CategoryEntry {
  slug: string;
  parent: string | null;
  position: number;
  name_en: string;
  name_fa: string;
}

function readCategories(dir: string): CategoryEntry[] {
  const file = path.join(dir, CATEGORIES_FILE);
  if (!fs.existsSync(file)) return [];
  let entries: unknown;
  try {
    entries = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    throw new MalformedFile(CATEGORIES_FILE, 1, `not JSON: ${(error as Error).message}`);
  }
  if (!Array.isArray(entries)) throw new MalformedFile(CATEGORIES_FILE, 1, 'expected an array of categories');
  return entries.map((e, i) => {
    const c = e as Partial<CategoryEntry>;
    const ok =
      typeof c.slug === 'string' &&
      /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(c.slug) &&
      (c.parent === null || typeof c.parent === 'string') &&
      Number.isInteger(c.position) &&
      typeof c.name_en === 'string' &&
      c.name_en.trim() !== '' &&
      typeof c.name_fa === 'string' &&
      c.name_fa.trim() !== '';
    if (!ok)
      throw new MalformedFile(
        CATEGORIES_FILE,
        i + 1,
        `category ${i + 1} needs slug, parent (slug or null), position, name_en and name_fa`,
      );
    return c as CategoryEntry;
  });
}

/** Reads and checks the folder: every Markdown file parsed, no key or slug twice. Throws MalformedFile. */
export function readFolder(dir: string): { files: ParsedFile[]; categories: CategoryEntry[] } {
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) throw new MalformedFile(dir, 0, 'not a folder');
  const categories = readCategories(dir);
  const files: ParsedFile[] = [];
  const keys = new Map<string, string>();
  for (const name of fs.readdirSync(dir).sort()) {
    if (!name.endsWith('.md')) continue;
    if (!FILE_NAME.test(name)) throw new MalformedFile(name, 1, 'the file name must be <category>.<en|fa>.md');
    const text = fs.readFileSync(path.join(dir, name), 'utf8');
    const parsed = parseArticleFile(name, text);
    for (const article of parsed.articles) {
      for (const [what, value] of [
        ['id', article.key],
        ['slug', article.slug],
      ] as const) {
        const seen = `${what} ${article.lang} ${value}`;
        const line =
          text.split('\n').findIndex((l) => l.includes(what === 'id' ? `id: ${value} ` : `slug: ${value} `)) + 1;
        if (keys.has(seen))
          throw new MalformedFile(name, line || 1, `the ${what} ${value} is also used in ${keys.get(seen)}`);
        keys.set(seen, name);
      }
    }
    files.push(parsed);
  }
  return { files, categories };
}

/** Writes the folder's categories and articles in one transaction; returns what changed. */
export async function importFolder(
  db: Kysely<Database>,
  dir: string,
  actor: Actor,
  progress: (line: string) => void = () => {},
): Promise<ImportReport> {
  const { files, categories } = readFolder(dir);
  const total = files.reduce((n, f) => n + f.articles.length, 0);
  const report: ImportReport = {
    files: files.length,
    created: 0,
    updated: 0,
    unchanged: 0,
    categories_created: 0,
    categories_updated: 0,
  };
  await db.transaction().execute(async (trx) => {
    const now = new Date().toISOString();
    const upsert = async (slug: string, fields: Partial<q.CategoryFields>) => {
      const current = await q.findCategoryBySlug(trx, slug);
      if (!current) {
        await q.insertCategory(
          trx,
          { slug, parent_id: null, position: 0, name_en: slug, name_fa: slug, ...fields },
          now,
        );
        report.categories_created += 1;
        return;
      }
      const next = {
        slug,
        parent_id: current.parent_id,
        position: current.position,
        name_en: current.name_en,
        name_fa: current.name_fa,
        ...fields,
      };
      if (
        JSON.stringify(next) ===
        JSON.stringify({
          slug,
          parent_id: current.parent_id,
          position: current.position,
          name_en: current.name_en,
          name_fa: current.name_fa,
        })
      )
        return;
      await q.updateCategory(trx, current.id, next, now);
      report.categories_updated += 1;
    };
    for (const c of categories) {
      const parent = c.parent === null ? null : ((await q.findCategoryBySlug(trx, c.parent))?.id ?? null);
      await upsert(c.slug, { parent_id: parent, position: c.position, name_en: c.name_en, name_fa: c.name_fa });
    }
    for (const file of files)
      if (file.category !== NO_CATEGORY && file.categoryName)
        await upsert(
          file.category,
          file.lang === 'en' ? { name_en: file.categoryName } : { name_fa: file.categoryName },
        );
    let done = 0;
    for (const file of files)
      for (const parsed of file.articles) {
        const next = normalized({ ...parsed, category: file.category === NO_CATEGORY ? null : file.category });
        const current = await findArticleByKey(trx, next.key, next.lang);
        if (!current) report.created += 1;
        else if (changedFields(fieldsOf(current), next).length > 0) report.updated += 1;
        else {
          report.unchanged += 1;
          continue;
        }
        await writeArticle(trx, actor, current, next, 'import');
        done += 1;
        if (done % 250 === 0) progress(`kb:import: ${done} of ${total} articles written`);
      }
  });
  return report;
}

/** Writes every article (any status) and the categories into the folder; returns the files written. */
export async function exportFolder(db: Kysely<Database>, dir: string): Promise<string[]> {
  fs.mkdirSync(dir, { recursive: true });
  const all = await q.allCategories(db);
  const slugOf = new Map(all.map((c) => [c.id, c.slug]));
  const entries: CategoryEntry[] = all.map((c) => ({
    slug: c.slug,
    parent: c.parent_id === null ? null : (slugOf.get(c.parent_id) ?? null),
    position: c.position,
    name_en: c.name_en,
    name_fa: c.name_fa,
  }));
  const written = [CATEGORIES_FILE];
  fs.writeFileSync(path.join(dir, CATEGORIES_FILE), `${JSON.stringify(entries, null, 2)}\n`);
  const { rows } = await listArticles(db, {}, 0, Number.MAX_SAFE_INTEGER);
  const groups = new Map<string, typeof rows>();
  for (const article of rows) {
    const name = `${article.category ?? NO_CATEGORY}.${article.lang}.md`;
    groups.set(name, [...(groups.get(name) ?? []), article]);
  }
  for (const [name, articles] of [...groups].sort(([a], [b]) => a.localeCompare(b))) {
    const first = articles[0]!;
    const category = all.find((c) => c.slug === first.category);
    const heading = category ? (first.lang === 'en' ? category.name_en : category.name_fa) : NO_CATEGORY;
    fs.writeFileSync(path.join(dir, name), formatArticleFile(heading, articles));
    written.push(name);
  }
  return written;
}
