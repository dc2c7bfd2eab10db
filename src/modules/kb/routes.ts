// The knowledge base's routes: the public help centre here, the staff's editing API in
// admin-routes.ts. Thin: each validates with its schema, calls one service function and shapes
// the answer.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import { pageMeta } from '../../core/pagination.js';
import { requestLocale } from '../../http/i18n.js';
import adminRoutes from './admin-routes.js';
import { helpArticleBySlug, helpCategories, helpList } from './help.js';
import * as s from './schemas.js';

const PUBLIC = { validationForm: 'general' } as const;
/** Shared caches may keep an article a minute; a browser revalidates it with its ETag. */
const ARTICLE_CACHE = 'public, max-age=60';

const routes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const { deps } = app;

  app.get(
    '/kb/categories',
    {
      schema: {
        operationId: 'listHelpCategories',
        summary: "The help centre's category tree",
        description:
          'Every category depth first (a category follows its parent; siblings in their order), named in the ' +
          'language, with the number of published articles it holds itself. Public. Without lang, the language ' +
          'of Accept-Language.',
        tags: s.publicTags,
        querystring: s.LangQuery,
        response: s.responses.publicCategories,
      },
      config: PUBLIC,
    },
    async (req) => ({ success: true, data: await helpCategories(deps.db, req.query.lang ?? requestLocale(req)) }),
  );

  app.get(
    '/kb/articles',
    {
      schema: {
        operationId: 'listHelpArticles',
        summary: 'Published articles of the help centre, paginated',
        description:
          'Published articles in one language (Accept-Language without lang), by category and/or tag. With q, ' +
          "only the articles the assistant's retrieval finds for those words, best first (colloquial Persian, " +
          'Persian typed in Latin letters and typos are read as the chat reads them); without q, oldest first. ' +
          'Public.',
        tags: s.publicTags,
        querystring: s.PublicListQuery,
        response: s.responses.publicList,
      },
      config: PUBLIC,
    },
    async (req) => {
      const { page = 1, per_page: perPage = 15, lang, ...filters } = req.query;
      const query = { ...filters, lang: lang ?? requestLocale(req) };
      const { total, data } = await helpList(deps.db, app.knowledge, query, page, perPage);
      return { success: true, data, meta: pageMeta(total, page, perPage) };
    },
  );

  app.get(
    '/kb/articles/:slug',
    {
      schema: {
        operationId: 'showHelpArticle',
        summary: 'One published article of the help centre',
        description:
          'The article with this slug in the language (Accept-Language without lang): Markdown body, category, ' +
          "tags, last change and the other language's slug when that version is published. 404 for drafts, " +
          'archived articles and unknown slugs. Public and cacheable: an ETag, and 304 for a matching ' +
          'If-None-Match.',
        tags: s.publicTags,
        params: s.SlugParams,
        querystring: s.LangQuery,
        response: s.responses.publicArticle,
      },
      config: PUBLIC,
    },
    async (req, reply) => {
      const { data, etag } = await helpArticleBySlug(deps.db, req.query.lang ?? requestLocale(req), req.params.slug);
      reply.header('etag', etag).header('cache-control', ARTICLE_CACHE).header('vary', 'accept-language');
      const asked = req.headers['if-none-match'];
      if (asked?.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)) return reply.code(304).send(null);
      return { success: true, data };
    },
  );

  await app.register(adminRoutes);
};

export default routes;
