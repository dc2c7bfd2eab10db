// The knowledge base as Markdown files, the format of assets/assistant/knowledge: one file per
// category and language (<category>.<lang>.md) starting with "# <category name>", then per
// article a "## title" heading, an id comment and optional comments, then the body:
//   <!-- id: payments.refund-time -->          the key (required)
//   <!-- slug: refund-time -->                 default: the key with dots as dashes
//   <!-- also: another way to ask it -->       any number: the questions
//   <!-- pages: wallet, /wallet/refunds -->    at most one
//   <!-- next: payments.refund-time -->        at most one: the keys of the next steps
//   <!-- tags: refunds, wallet -->             at most one
//   <!-- status: draft -->                     default: published
// Comments are hidden when the Markdown is rendered. A malformed file is refused with its name,
// the line and the reason; nothing is written.
import type { ArticleFields } from './repository.js';
import type { ArticleLang, ArticleStatus } from './tables.js';
import { ARTICLE_STATUSES } from './tables.js';
import { KEY_PATTERN, SLUG_PATTERN, TAG_PATTERN } from './rules.js';

export const FILE_NAME = /^([a-z0-9-]+)\.(en|fa)\.md$/;
const COMMENT = /^<!--\s*([a-z]+):\s*(.*?)\s*-->$/;
const SINGLE = ['id', 'slug', 'pages', 'next', 'tags', 'status'];

export class MalformedFile extends Error {
  override name = 'MalformedFile';
  constructor(
    readonly file: string,
    readonly line: number,
    readonly reason: string,
  ) {
    super(`${file}:${line}: ${reason}`);
  }
}

export interface ParsedFile {
  category: string;
  lang: ArticleLang;
  /** The "# heading" of the file: the category's name in the file's language. */
  categoryName: string | null;
  articles: ArticleFields[];
}

const list = (value: string) =>
  value
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);

export function defaultSlug(key: string): string {
  return key.replace(/\./g, '-');
}

/** The articles of one file; throws MalformedFile with the 1-based line of the fault. */
export function parseArticleFile(file: string, text: string): ParsedFile {
  const name = FILE_NAME.exec(file);
  if (!name) throw new MalformedFile(file, 1, 'the file name must be <category>.<en|fa>.md');
  const [, category, lang] = name as unknown as [string, string, ArticleLang];
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const title = lines.find((l) => l.startsWith('# '));
  const parsed: ParsedFile = { category, lang, categoryName: title ? title.slice(2).trim() : null, articles: [] };
  const starts = lines.flatMap((l, i) => (l.startsWith('## ') ? [i] : []));
  for (const [n, start] of starts.entries()) {
    const end = starts[n + 1] ?? lines.length;
    const heading = lines[start]!.slice(3).trim();
    if (!heading) throw new MalformedFile(file, start + 1, 'the heading has no title');
    const seen = new Map<string, string>();
    const questions: string[] = [];
    let i = start + 1;
    for (; i < end; i += 1) {
      const line = lines[i]!.trim();
      if (line === '') continue;
      const comment = COMMENT.exec(line);
      if (!comment) break;
      const [, field, value] = comment as unknown as [string, string, string];
      if (field === 'also') {
        if (value) questions.push(value);
        continue;
      }
      if (!SINGLE.includes(field)) throw new MalformedFile(file, i + 1, `unknown comment "${field}"`);
      if (seen.has(field)) throw new MalformedFile(file, i + 1, `a second ${field} line; give it once`);
      seen.set(field, value);
      const fault = checkField(field, value);
      if (fault) throw new MalformedFile(file, i + 1, fault);
    }
    const key = seen.get('id');
    if (!key)
      throw new MalformedFile(
        file,
        start + 1,
        `the article "${heading}" needs an id line such as <!-- id: ${category}.some-slug --> under its heading`,
      );
    const body = lines
      .slice(i, end)
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim();
    if (!body) throw new MalformedFile(file, start + 1, `the article "${heading}" has no body`);
    parsed.articles.push({
      key,
      lang,
      slug: seen.get('slug') ?? defaultSlug(key),
      title: heading,
      body,
      questions,
      pages: list(seen.get('pages') ?? ''),
      next: list(seen.get('next') ?? ''),
      category,
      tags: list(seen.get('tags') ?? ''),
      status: (seen.get('status') as ArticleStatus | undefined) ?? 'published',
    });
  }
  return parsed;
}

function checkField(field: string, value: string): string | null {
  if (field === 'id' && !KEY_PATTERN.test(value))
    return `the id "${value}" must be lower-case words joined by dots, such as payments.refund-time`;
  if (field === 'slug' && !SLUG_PATTERN.test(value))
    return `the slug "${value}" must be lower-case letters, digits and dashes`;
  if (field === 'status' && !ARTICLE_STATUSES.includes(value as ArticleStatus))
    return `the status must be one of ${ARTICLE_STATUSES.join(', ')}`;
  if (field === 'next') {
    const bad = list(value).find((k) => !KEY_PATTERN.test(k));
    if (bad !== undefined) return `the next step "${bad}" must be an article's id, such as payments.refund-time`;
  }
  if (field === 'tags') {
    const bad = list(value).find((t) => !TAG_PATTERN.test(t));
    if (bad !== undefined) return `the tag "${bad}" must be lower-case letters, digits and dashes`;
  }
  return null;
}

/** One file's text for the articles of a category in a language (the inverse of parseArticleFile). */
export function formatArticleFile(categoryName: string, articles: ArticleFields[]): string {
  const parts = [`# ${categoryName}`];
  for (const a of articles) {
    const lines = [`## ${a.title}`, `<!-- id: ${a.key} -->`];
    if (a.slug !== defaultSlug(a.key)) lines.push(`<!-- slug: ${a.slug} -->`);
    if (a.pages.length > 0) lines.push(`<!-- pages: ${a.pages.join(', ')} -->`);
    if (a.next.length > 0) lines.push(`<!-- next: ${a.next.join(', ')} -->`);
    if (a.tags.length > 0) lines.push(`<!-- tags: ${a.tags.join(', ')} -->`);
    if (a.status !== 'published') lines.push(`<!-- status: ${a.status} -->`);
    for (const q of a.questions) lines.push(`<!-- also: ${q} -->`);
    lines.push('', a.body);
    parts.push(lines.join('\n'));
  }
  return `${parts.join('\n\n')}\n`;
}
