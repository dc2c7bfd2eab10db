// Categories and tags of the knowledge base, for staff, under /api/admin/kb/.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import { t } from '../../core/i18n.js';
import { requestLocale } from '../../http/i18n.js';
import { pathId, STAFF_ROUTE } from './access.js';
import * as s from './schemas.js';
import * as taxonomy from './taxonomy.js';

const tags = s.adminTags;
const config = STAFF_ROUTE;

const taxonomyRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = app.deps;
  const categoryId = (id: string) => pathId(id, 'kb.category_not_found');

  app.get(
    '/admin/kb/categories',
    {
      schema: {
        operationId: 'listKbCategories',
        summary: 'Every category (staff)',
        description: 'Flat, by position then id; parent_id makes the tree.',
        tags,
        response: s.responses.categories,
      },
      config,
    },
    async () => ({ success: true, data: await taxonomy.categories(db) }),
  );

  app.post(
    '/admin/kb/categories',
    {
      schema: {
        operationId: 'createKbCategory',
        summary: 'Create a category (staff)',
        description: 'A unique slug, a name per language, an optional parent and position (default 0).',
        tags,
        body: s.CategoryBody,
        response: s.responses.category,
      },
      config,
    },
    async (req, reply) => {
      const data = await taxonomy.createCategory(db, req.body);
      return reply.code(201).send({ success: true, message: t(requestLocale(req), 'kb.category_saved'), data });
    },
  );

  app.put(
    '/admin/kb/categories/:id',
    {
      schema: {
        operationId: 'updateKbCategory',
        summary: 'Rename, move or reorder a category (staff)',
        description:
          'parent_id and position left out keep their value; a category cannot move under itself or a descendant (422).',
        tags,
        params: s.IdParams,
        body: s.CategoryBody,
        response: s.responses.category,
      },
      config,
    },
    async (req) => {
      const data = await taxonomy.updateCategory(db, categoryId(req.params.id), req.body);
      return { success: true, message: t(requestLocale(req), 'kb.category_saved'), data };
    },
  );

  app.delete(
    '/admin/kb/categories/:id',
    {
      schema: {
        operationId: 'deleteKbCategory',
        summary: 'Delete an empty category (staff)',
        description: '400 while articles or subcategories are in it.',
        tags,
        params: s.IdParams,
        response: s.responses.categoryDeleted,
      },
      config,
    },
    async (req) => {
      await taxonomy.deleteCategory(db, categoryId(req.params.id));
      return { success: true, message: t(requestLocale(req), 'kb.category_deleted') };
    },
  );

  app.get(
    '/admin/kb/tags',
    {
      schema: {
        operationId: 'listKbTags',
        summary: 'Every tag with its number of articles (staff)',
        description: 'By name. Tags are shared by both languages.',
        tags,
        response: s.responses.tags,
      },
      config,
    },
    async () => ({ success: true, data: await taxonomy.tags(db) }),
  );

  app.post(
    '/admin/kb/tags',
    {
      schema: {
        operationId: 'createKbTag',
        summary: 'Create a tag (staff)',
        description: 'An article naming a new tag creates it too.',
        tags,
        body: s.TagBody,
        response: s.responses.tag,
      },
      config,
    },
    async (req, reply) => {
      const data = await taxonomy.createTag(db, req.body.name);
      return reply.code(201).send({ success: true, message: t(requestLocale(req), 'kb.tag_saved'), data });
    },
  );

  app.delete(
    '/admin/kb/tags/:id',
    {
      schema: {
        operationId: 'deleteKbTag',
        summary: 'Delete a tag (staff)',
        description: 'It leaves every article that carried it.',
        tags,
        params: s.IdParams,
        response: s.responses.tagDeleted,
      },
      config,
    },
    async (req) => {
      await taxonomy.deleteTag(db, pathId(req.params.id, 'kb.tag_not_found'));
      return { success: true, message: t(requestLocale(req), 'kb.tag_deleted') };
    },
  );
};

export default taxonomyRoutes;
