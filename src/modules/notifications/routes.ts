// The caller's notifications (spec: GET list, POST mark read, DELETE) plus the two extensions of
// the original platform (unread count, read all); the admin integration API lives in admin-routes.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import { AnswerReuse } from '../../http/answer-reuse.js';
import { currentUser } from '../../http/auth.js';
import { t } from '../../core/i18n.js';
import { requestLocale } from '../../http/i18n.js';
import { SuccessMessage, errorResponses } from '../../http/schemas.js';
import adminRoutes from './admin-routes.js';
import streamRoutes from './stream-routes.js';
import { unreadListJson, type UnreadItem } from './list-json.js';
import { NotificationIdParams, NotificationList, ReadAllResult, UnreadCount } from './schemas.js';
import { NotificationService } from './service.js';

const tags = ['notifications'];

const routes: FastifyPluginAsync = async (instance) => {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const notifications = new NotificationService(app.deps.db);
  // The list answer, reused per caller until their notifications change (http/answer-reuse.ts),
  // written from the rows with each item's data as stored (list-json.ts: the bytes of NotificationList).
  const answers = new AnswerReuse<UnreadItem[]>(
    app.deps.db,
    'notifications',
    app.deps.config.NOTIFICATIONS_CACHE_MB * 1_048_576,
    (_reply, items) => unreadListJson(items),
  );
  const config = { auth: 'user', validationForm: 'general' } as const;

  app.get(
    '/notifications',
    {
      schema: {
        summary: "The caller's unread notifications, newest first (at most 100)",
        operationId: 'listNotifications',
        description:
          "The caller's unread notifications, newest first, at most 100; data is the notification's own payload.",
        tags,
        response: { 200: NotificationList, ...errorResponses(401, 429, 503) },
      },
      config: { ...config, ...answers.routeConfig },
    },
    async (req, reply) => {
      const userId = currentUser(req).id;
      return answers.send(reply, { kind: 'list', userId, values: {} }, async () => ({
        payload: await notifications.unread(userId),
      }));
    },
  );

  app.get(
    '/notifications/unread-count',
    {
      schema: {
        summary: 'How many unread notifications the caller has',
        operationId: 'countUnreadNotifications',
        description: "The number of the caller's unread notifications, for a badge.",
        tags,
        response: { 200: UnreadCount, ...errorResponses(401, 429, 503) },
      },
      config,
    },
    async (req) => ({ success: true, count: await notifications.unreadCount(currentUser(req).id) }),
  );

  app.post(
    '/notifications/read-all',
    {
      schema: {
        summary: "Mark all of the caller's notifications read",
        operationId: 'markAllNotificationsRead',
        description: 'Marks every unread notification of the caller read; the answer counts them.',
        tags,
        response: { 200: ReadAllResult, ...errorResponses(401, 429, 503) },
      },
      config,
    },
    async (req) => {
      const count = await notifications.markAllRead(currentUser(req).id);
      return { success: true, message: t(requestLocale(req), 'notifications.all_marked_read'), count };
    },
  );

  app.post(
    '/notifications/:id',
    {
      schema: {
        summary: 'Mark a notification read (one already read keeps its read_at)',
        operationId: 'markNotificationRead',
        description: "Marks one of the caller's notifications read; another user's or an unknown id answers 404.",
        tags,
        params: NotificationIdParams,
        response: { 200: SuccessMessage, ...errorResponses(401, 404, 429, 503) },
      },
      config,
    },
    async (req) => {
      await notifications.markRead(currentUser(req).id, req.params.id);
      return { success: true, message: t(requestLocale(req), 'notifications.marked_read') };
    },
  );

  app.delete(
    '/notifications/:id',
    {
      schema: {
        summary: 'Delete a notification permanently',
        operationId: 'deleteNotification',
        description: "Deletes one of the caller's notifications; another user's or an unknown id answers 404.",
        tags,
        params: NotificationIdParams,
        response: { 200: SuccessMessage, ...errorResponses(401, 404, 429, 503) },
      },
      config,
    },
    async (req) => {
      await notifications.delete(currentUser(req).id, req.params.id);
      return { success: true, message: t(requestLocale(req), 'notifications.deleted') };
    },
  );

  await app.register(adminRoutes);
  await app.register(streamRoutes);
};

export default routes;
