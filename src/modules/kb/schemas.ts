// TypeBox schemas of the knowledge base's admin API and public help centre.
import { type TSchema, Type } from 'typebox';
import { MAX_ID } from '../../core/ids.js';
import { PageMetaSchema, paginationQuery } from '../../core/pagination.js';
import { errorResponses, NO_NUL } from '../../http/schemas.js';
import { KEY_PATTERN, LIMITS, LINE_PATTERN, PAGE_PATTERN, SLUG_PATTERN, TAG_PATTERN } from './rules.js';
import type { OpenApiTag } from '../../http/openapi.js';

export const adminTags = ['knowledge base (staff)'];
export const publicTags = ['help centre'];

const Nullable = <T extends TSchema>(schema: T, description?: string) =>
  Type.Union([schema, Type.Null()], description ? { description } : {});
const text = (max: number, description: string) =>
  Type.String({ minLength: 1, maxLength: max, pattern: NO_NUL, description });
/** One line that cannot close the Markdown comment holding it (rules.ts). */
const line = (max: number, description: string) =>
  Type.String({ minLength: 1, maxLength: max, pattern: LINE_PATTERN.source, description });

export const LangEnum = Type.Enum(['en', 'fa'], { description: 'en or fa.' });
export const StatusEnum = Type.Enum(['draft', 'published', 'archived'], {
  description: 'draft, published or archived.',
});
const Key = Type.String({
  maxLength: LIMITS.key,
  pattern: KEY_PATTERN.source,
  description: "Shared by the English and Persian versions, e.g. payments.refund-time: the id in the chat's sources.",
});
const Slug = Type.String({
  maxLength: LIMITS.slug,
  pattern: SLUG_PATTERN.source,
  description: "The article's address in its language (lower-case letters, digits, dashes).",
});
const Tag = Type.String({
  maxLength: LIMITS.tag,
  pattern: TAG_PATTERN.source,
  description: 'A tag name (lower-case letters, digits, dashes).',
});
const Questions = Type.Array(line(LIMITS.question, 'One way members ask it (one line).'), {
  maxItems: LIMITS.questions,
  description: 'The other ways members ask it; the assistant matches them.',
});
const Pages = Type.Array(
  Type.String({
    minLength: 1,
    maxLength: LIMITS.page,
    pattern: PAGE_PATTERN.source,
    description: 'A module (wallet), route name (projects.show) or path (/investments/:id); no comma.',
  }),
  { maxItems: LIMITS.pages, description: 'The pages of the app the article is about.' },
);
// The chat leans to them when a follow-up is vague (after a cancellation, how long the refund takes).
const NextSteps = Type.Array(Key, { maxItems: LIMITS.next, description: 'The keys of the articles asked next.' });
const Tags = Type.Array(Tag, { maxItems: LIMITS.tags, description: 'Tags; a new name creates the tag.' });
const Title = text(LIMITS.title, 'The question the article answers, as its heading.');
const Body = text(
  LIMITS.body,
  'Markdown. No level-2 heading (## ) lines and no leading <!-- comment: the Markdown files use them.',
);
const Category = Nullable(Slug, "The category's slug, or null.");

export const ArticleIdParams = Type.Object({ id: Type.String({ description: 'Article id (integer).' }) });
export const RevisionParams = Type.Object({
  id: Type.String({ description: 'Article id (integer).' }),
  revision: Type.String({ description: 'Revision number (integer).' }),
});
export const IdParams = Type.Object({ id: Type.String({ description: 'Id (integer).' }) });

export const CreateArticleBody = Type.Object(
  {
    key: Key,
    lang: LangEnum,
    slug: Slug,
    title: Title,
    body: Body,
    questions: Type.Optional(Questions),
    category: Type.Optional(Category),
    tags: Type.Optional(Tags),
    pages: Type.Optional(Pages),
    next: Type.Optional(NextSteps),
    status: Type.Optional(Type.Enum(['draft', 'published'], { description: 'draft (default) or published.' })),
  },
  { additionalProperties: false },
);

/** An article's revision number, as a client names the one it saw. */
const revisionNumber = (description: string) => Type.Integer({ minimum: 1, maximum: MAX_ID, description });

export const UpdateArticleBody = Type.Object(
  {
    revision: revisionNumber('The revision this edit was made on; another one answers 409 with the current article.'),
    slug: Type.Optional(Slug),
    title: Type.Optional(Title),
    body: Type.Optional(Body),
    questions: Type.Optional(Questions),
    category: Type.Optional(Category),
    tags: Type.Optional(Tags),
    pages: Type.Optional(Pages),
    next: Type.Optional(NextSteps),
  },
  { additionalProperties: false, description: 'Fields left out keep their value; key and language never change.' },
);

export const RevisionBody = Type.Object(
  {
    revision: Type.Optional(revisionNumber('The revision the caller saw; another one answers 409.')),
  },
  { additionalProperties: false },
);

export const AdminListQuery = Type.Object({
  lang: Type.Optional(LangEnum),
  status: Type.Optional(StatusEnum),
  category: Type.Optional(Slug),
  tag: Type.Optional(Tag),
  q: Type.Optional(
    Type.String({ maxLength: 200, pattern: NO_NUL, description: 'Case-insensitive substring of the title or key.' }),
  ),
  ...paginationQuery(15, 100),
});

export const PublicListQuery = Type.Object({
  lang: Type.Optional(LangEnum),
  q: Type.Optional(
    Type.String({
      maxLength: 500,
      pattern: NO_NUL,
      description: 'Words to search, read as the assistant reads a message (colloquial Persian, Finglish, typos).',
    }),
  ),
  category: Type.Optional(Slug),
  tag: Type.Optional(Tag),
  ...paginationQuery(15, 100),
});
export const LangQuery = Type.Object({ lang: Type.Optional(LangEnum) });
export const SlugParams = Type.Object({
  slug: Type.String({ maxLength: 200, pattern: NO_NUL, description: "The article's slug in the language." }),
});

export const AdminArticle = Type.Object(
  {
    id: Type.Integer(),
    key: Type.String(),
    lang: LangEnum,
    slug: Type.String(),
    title: Type.String(),
    body: Type.String(),
    questions: Type.Array(Type.String()),
    category: Nullable(Type.String()),
    tags: Type.Array(Type.String()),
    pages: Type.Array(Type.String()),
    next: Type.Array(Type.String()),
    status: StatusEnum,
    revision: Type.Integer({ description: 'The latest revision: name it in the next update.' }),
    updated_by: Nullable(Type.Integer()),
    created_at: Type.String(),
    updated_at: Type.String(),
  },
  { title: 'KbArticle' },
);

const Revision = Type.Object(
  {
    revision: Type.Integer(),
    action: Type.String({ description: 'create, update, publish, archive or restore.' }),
    changed: Type.Array(Type.String(), { description: 'The fields this revision changed.' }),
    created_by: Nullable(Type.Integer()),
    created_at: Type.String(),
    snapshot: Type.Object({}, { additionalProperties: true, description: "The article's fields after this revision." }),
  },
  { title: 'KbRevision' },
);

export const CategoryBody = Type.Object(
  {
    slug: Slug,
    parent_id: Type.Optional(
      Nullable(Type.Integer({ minimum: 1, maximum: MAX_ID }), 'The parent category, or null for a top one.'),
    ),
    name_en: text(LIMITS.categoryName, 'The name in English.'),
    name_fa: text(LIMITS.categoryName, 'The name in Persian.'),
    position: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 1_000_000, description: 'Order among its siblings (smaller first).' }),
    ),
  },
  { additionalProperties: false },
);
const AdminCategory = Type.Object(
  {
    id: Type.Integer(),
    slug: Type.String(),
    parent_id: Nullable(Type.Integer()),
    name_en: Type.String(),
    name_fa: Type.String(),
    position: Type.Integer(),
    created_at: Type.String(),
    updated_at: Type.String(),
  },
  { title: 'KbCategory' },
);
export const TagBody = Type.Object({ name: Tag }, { additionalProperties: false });
const AdminTag = Type.Object({ id: Type.Integer(), name: Type.String(), articles: Type.Integer() }, { title: 'KbTag' });

const PublicCategory = Type.Object(
  {
    slug: Type.String(),
    parent: Nullable(Type.String(), "The parent category's slug, or null for a top one."),
    depth: Type.Integer({ description: '0 for a top category, 1 under it, ...' }),
    name: Type.String({ description: 'In the requested language.' }),
    articles: Type.Integer({ description: 'Published articles in this category itself in the language.' }),
  },
  {
    title: 'HelpCategory',
    description: 'The tree depth first: each category follows its parent, siblings in their order.',
  },
);

const PublicSummary = Type.Object(
  {
    key: Type.String(),
    slug: Type.String(),
    title: Type.String(),
    category: Nullable(Type.String()),
    tags: Type.Array(Type.String()),
    updated_at: Type.String(),
  },
  { title: 'HelpArticleSummary' },
);
const PublicArticle = Type.Object(
  {
    key: Type.String(),
    lang: LangEnum,
    slug: Type.String(),
    title: Type.String(),
    body: Type.String({ description: 'Markdown.' }),
    category: Nullable(Type.Object({ slug: Type.String(), name: Type.String() })),
    tags: Type.Array(Type.String()),
    updated_at: Type.String(),
    other_language: Nullable(
      Type.Object({ lang: LangEnum, slug: Type.String() }),
      'The same article in the other language, when published.',
    ),
  },
  { title: 'HelpArticle' },
);

const ok = <T extends TSchema>(data: T) => Type.Object({ success: Type.Boolean(), data });
const okMessage = <T extends TSchema>(data: T) =>
  Type.Object({ success: Type.Boolean(), message: Type.String(), data });
const Conflict = Type.Object(
  { success: Type.Boolean(), message: Type.String(), data: AdminArticle },
  { title: 'KbConflict', description: 'The article changed since the named revision; data is the current article.' },
);
const Done = Type.Object({ success: Type.Boolean(), message: Type.String() });

const staffErrors = errorResponses(401, 403, 404, 422);
export const responses = {
  adminList: {
    200: Type.Object({ success: Type.Boolean(), data: Type.Array(AdminArticle), meta: PageMetaSchema }),
    ...errorResponses(401, 403, 422),
  },
  created: { 201: okMessage(AdminArticle), ...errorResponses(401, 403, 422) },
  article: { 200: ok(AdminArticle), ...staffErrors },
  changed: { 200: okMessage(AdminArticle), 409: Conflict, ...staffErrors },
  deleted: { 200: Done, ...staffErrors },
  revisions: { 200: ok(Type.Array(Revision)), ...staffErrors },
  categories: { 200: ok(Type.Array(AdminCategory)), ...errorResponses(401, 403) },
  category: {
    200: okMessage(AdminCategory),
    201: okMessage(AdminCategory),
    ...errorResponses(400, 401, 403, 404, 422),
  },
  categoryDeleted: { 200: Done, ...errorResponses(400, 401, 403, 404, 422) },
  tags: { 200: ok(Type.Array(AdminTag)), ...errorResponses(401, 403) },
  tag: { 200: okMessage(AdminTag), 201: okMessage(AdminTag), ...staffErrors },
  tagDeleted: { 200: Done, ...staffErrors },
  publicCategories: { 200: ok(Type.Array(PublicCategory)), ...errorResponses(422) },
  publicList: {
    200: Type.Object({ success: Type.Boolean(), data: Type.Array(PublicSummary), meta: PageMetaSchema }),
    ...errorResponses(422),
  },
  publicArticle: {
    200: ok(PublicArticle),
    304: Type.Null({ description: 'Not modified (If-None-Match).' }),
    ...errorResponses(404, 422),
  },
};

/** The knowledge base's tags in the OpenAPI document. */
export const openApiTags: OpenApiTag[] = [
  {
    name: adminTags[0]!,
    description: 'Staff editing of the knowledge base: articles, revisions, categories and tags.',
  },
  {
    name: publicTags[0]!,
    description: 'The public help centre: published articles and their categories, no token needed.',
  },
];
