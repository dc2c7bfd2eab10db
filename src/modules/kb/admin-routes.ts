// The knowledge base's editing API for staff, under /api/admin/kb/: articles (list, show, create,
// update with the revision it was made on, publish, archive, delete, revisions, restore),
// categories and tags. Members get 403.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { currentUser } from '../../http/auth.js';
import { t } from '../../core/i18n.js';
import { pageMeta } from '../../core/pagination.js';
import { requestLocale } from '../../http/i18n.js';
import { pathId, STAFF_ROUTE } from './access.js';
import * as s from './schemas.js';
import * as articles from './service.js';
import taxonomyRoutes from './taxonomy-routes.js';

const tags = s.adminTags;
/** publish, archive and restore: a request without a body names no revision. */
const noBodyAsEmpty = async (req: FastifyRequest) => {
  if (req.body === undefined) req.body = {};
};
const articleId = (id: string) => pathId(id, 'kb.article_not_found');

const adminRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = app.deps;
  const config = STAFF_ROUTE;

  app.get(
    '/admin/kb/articles',
    {
      schema: {
        operationId: 'listKbArticles',
        summary: 'Articles of every status (staff)',
        description:
          'Filters by language, status, category and tag; q is a case-insensitive substring of the title or key. Oldest first.',
        tags,
        querystring: s.AdminListQuery,
        response: s.responses.adminList,
      },
      config,
    },
    async (req) => {
      const { page = 1, per_page: perPage = 15, q, ...filters } = req.query;
      const { total, rows } = await articles.listForStaff(db, { ...filters, search: q }, page, perPage);
      return { success: true, data: rows, meta: pageMeta(total, page, perPage) };
    },
  );

  app.post(
    '/admin/kb/articles',
    {
      schema: {
        operationId: 'createKbArticle',
        summary: 'Create an article (staff)',
        description:
          'One article in one language; its English and Persian versions share the key. Status draft unless ' +
          'published is asked for. A new tag name creates the tag; the category must exist. Revision 1 is ' +
          'recorded.',
        tags,
        body: s.CreateArticleBody,
        response: s.responses.created,
      },
      config,
    },
    async (req, reply) => {
      const article = await articles.createArticle(db, currentUser(req).id, req.body);
      return reply
        .code(201)
        .send({ success: true, message: t(requestLocale(req), 'kb.article_created'), data: article });
    },
  );

  app.get(
    '/admin/kb/articles/:id',
    {
      schema: {
        operationId: 'showKbArticle',
        summary: 'One article of any status (staff)',
        description: 'With its revision number, to name in the next update.',
        tags,
        params: s.ArticleIdParams,
        response: s.responses.article,
      },
      config,
    },
    async (req) => ({ success: true, data: await articles.articleOf(db, articleId(req.params.id)) }),
  );

  app.put(
    '/admin/kb/articles/:id',
    {
      schema: {
        operationId: 'updateKbArticle',
        summary: 'Edit an article (staff)',
        description:
          'Names the revision the edit was made on: when the article has moved on since, 409 with the current ' +
          'article and nothing is written. Fields left out keep their value; key, language and status do not ' +
          'change here (publish, archive). An edit that changes nothing records no revision.',
        tags,
        params: s.ArticleIdParams,
        body: s.UpdateArticleBody,
        response: s.responses.changed,
      },
      config,
    },
    async (req) => {
      const article = await articles.updateArticle(db, currentUser(req).id, articleId(req.params.id), req.body);
      return { success: true, message: t(requestLocale(req), 'kb.article_updated'), data: article };
    },
  );

  for (const [action, status, key] of [
    ['publish', 'published', 'kb.article_published'],
    ['archive', 'archived', 'kb.article_archived'],
  ] as const)
    app.post(
      `/admin/kb/articles/:id/${action}`,
      {
        schema: {
          operationId: `${action}KbArticle`,
          summary: `${action === 'publish' ? 'Publish' : 'Archive'} an article (staff)`,
          description:
            `Sets the status to ${status} as a new revision; the assistant ` +
            `${action === 'publish' ? 'answers from it' : 'stops answering from it'} within 2 seconds on every ` +
            `instance. Already ${status}: nothing changes. With revision, 409 when the article has moved on ` +
            `since.`,
          tags,
          params: s.ArticleIdParams,
          body: s.RevisionBody,
          response: s.responses.changed,
        },
        config,
        preValidation: noBodyAsEmpty,
      },
      async (req) => {
        const article = await articles.changeStatus(
          db,
          currentUser(req).id,
          articleId(req.params.id),
          status,
          req.body?.revision,
        );
        return { success: true, message: t(requestLocale(req), key), data: article };
      },
    );

  app.delete(
    '/admin/kb/articles/:id',
    {
      schema: {
        operationId: 'deleteKbArticle',
        summary: 'Delete an article and its revisions (staff)',
        description: 'For good (archive keeps it); the assistant forgets it within 2 seconds on every instance.',
        tags,
        params: s.ArticleIdParams,
        response: s.responses.deleted,
      },
      config,
    },
    async (req) => {
      await articles.removeArticle(db, articleId(req.params.id));
      return { success: true, message: t(requestLocale(req), 'kb.article_deleted') };
    },
  );

  app.get(
    '/admin/kb/articles/:id/revisions',
    {
      schema: {
        operationId: 'listKbArticleRevisions',
        summary: "An article's revisions, newest first (staff)",
        description:
          'Each with who made it and when, its action, the fields it changed and the article as it was after it.',
        tags,
        params: s.ArticleIdParams,
        response: s.responses.revisions,
      },
      config,
    },
    async (req) => ({ success: true, data: await articles.revisionsOf(db, articleId(req.params.id)) }),
  );

  app.post(
    '/admin/kb/articles/:id/revisions/:revision/restore',
    {
      schema: {
        operationId: 'restoreKbArticleRevision',
        summary: "Restore an earlier revision's content (staff)",
        description:
          "The revision's slug, title, body, questions, category, tags, pages and next steps become the article's next " +
          'revision; its status stays. With revision in the body, 409 when the article has moved on since.',
        tags,
        params: s.RevisionParams,
        body: s.RevisionBody,
        response: s.responses.changed,
      },
      config,
      preValidation: noBodyAsEmpty,
    },
    async (req) => {
      const id = articleId(req.params.id);
      const revision = pathId(req.params.revision, 'kb.revision_not_found');
      const article = await articles.restoreRevision(db, currentUser(req).id, id, revision, req.body?.revision);
      return { success: true, message: t(requestLocale(req), 'kb.article_restored', { revision }), data: article };
    },
  );

  await app.register(taxonomyRoutes);
};

export default adminRoutes;
