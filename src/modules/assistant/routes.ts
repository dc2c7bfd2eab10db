// Routes of the assistant: welcome, chat, conversations, feedback, escalation, and the admin
// feedback list. Thin: each validates with its schema, calls the service and shapes the answer.
import { performance } from 'node:perf_hooks';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { currentUser } from '../../http/auth.js';
import { t } from '../../core/i18n.js';
import { requestLocale } from '../../http/i18n.js';
import { agentById, allAgents, type AgentId } from './agents.js';
import { streamChat, wantsEventStream } from './chat-stream.js';
import { escalate, escalationDeps } from './escalation.js';
import type { ConversationStatus } from './repository.js';
import { providerFromConfig } from './providers/index.js';
import * as s from './schemas.js';
import * as service from './service.js';
import { configuredWelcome } from './welcome.js';
import { conversationId } from './access.js';

export const ESCALATE_LIMIT = { max: 30, timeWindow: 60_000 };

const routes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const { deps } = app;
  // Everything that can fail at start fails here, before the server listens.
  const welcome = configuredWelcome(deps.config);
  const assistant: service.AssistantDeps = {
    deps,
    knowledge: app.knowledge,
    provider: providerFromConfig(deps.config),
  };
  const escalation = escalationDeps(deps);
  const user = { auth: 'user', validationForm: 'assistant' } as const;

  app.get(
    '/assistant/welcome',
    {
      schema: {
        summary: 'Welcome text and statistics',
        operationId: 'showWelcome',
        description:
          "The welcome message in the request's language, the number of conversations, the agents and the model provider. Public.",
        tags: s.tags,
        response: s.responses.welcome,
      },
      config: { validationForm: 'assistant' },
    },
    async (req) => {
      const locale = requestLocale(req);
      return {
        success: true,
        message: welcome ?? t(locale, 'assistant.welcome'),
        stats: {
          total_conversations: await service.totalConversations(assistant),
          agents: allAgents().map((a) => ({ id: a.id, name: a.name[locale], icon: a.icon, enabled: true })),
          provider: assistant.provider.name,
        },
      };
    },
  );

  app.post(
    '/assistant/chat',
    {
      schema: {
        summary: 'Ask the assistant',
        operationId: 'chat',
        description:
          'Sends a message to the assistant (a new conversation, or conversation_id to continue one) and answers JSON. ' +
          'With Accept: text/event-stream the same call answers Server-Sent Events instead: the 200 answer ' +
          'lists that form under x-negotiated-content, so generated clients read the JSON answer.',
        tags: s.tags,
        body: s.ChatBody,
        response: s.responses.chat,
      },
      config: user,
    },
    async (req, reply) => {
      const startedAt = performance.now();
      const turn = await service.begin(assistant, currentUser(req), req.body, { requestId: req.id, startedAt });
      if (wantsEventStream(req)) return streamChat(assistant, turn, req, reply);
      const result = await service.answer(assistant, turn);
      const agent = agentById(result.agent);
      const locale = requestLocale(req);
      return { success: true, ...result, agent_name: agent.name[locale], agent_icon: agent.icon, request_id: req.id };
    },
  );

  app.get(
    '/assistant/conversations',
    {
      schema: {
        summary: 'Your conversations, newest activity first',
        operationId: 'listConversations',
        description: "The caller's conversations, newest activity first, filtered by status and agent, paginated.",
        tags: s.tags,
        querystring: s.ConversationsQuery,
        response: s.responses.conversations,
      },
      config: user,
    },
    async (req) => {
      const { status, agent, page = 1, per_page: perPage = s.CONVERSATIONS_PER_PAGE.default } = req.query;
      const { rows, pagination } = await service.listConversations(assistant, currentUser(req), {
        status,
        agent,
        page,
        perPage,
      });
      const conversations = rows.map((c) => ({
        id: c.id,
        title: c.title,
        agent_type: c.agent_type as AgentId,
        status: c.status as ConversationStatus,
        last_message: c.last_message,
        updated_at: c.updated_at,
        created_at: c.created_at,
      }));
      return {
        success: true,
        conversations,
        pagination: {
          current_page: pagination.current_page,
          total: pagination.total,
          per_page: pagination.per_page,
          last_page: pagination.last_page,
        },
      };
    },
  );

  app.get(
    '/assistant/conversations/:id',
    {
      schema: {
        summary: 'One of your conversations with its messages',
        operationId: 'showConversation',
        description:
          "A conversation of the caller with its messages, oldest first; another user's or a deleted one answers 404.",
        tags: s.tags,
        params: s.ConversationParams,
        response: s.responses.conversation,
      },
      config: user,
    },
    async (req) => {
      const { conversation, messages } = await service.showConversation(
        assistant,
        currentUser(req),
        conversationId(req.params.id),
      );
      return {
        success: true,
        conversation: {
          id: conversation.id,
          title: conversation.title,
          agent_type: conversation.agent_type as AgentId,
          created_at: conversation.created_at,
          messages: messages.map((m) => ({
            id: m.id,
            role: m.role as 'user' | 'assistant',
            content: m.content,
            created_at: m.created_at,
            sources: m.sources,
            ...(m.interrupted ? { interrupted: true as const } : {}),
          })),
        },
      };
    },
  );

  app.delete(
    '/assistant/conversations/:id',
    {
      schema: {
        summary: 'Delete one of your conversations (soft: the record is kept)',
        operationId: 'deleteConversation',
        description:
          'Marks the conversation deleted: it leaves lists and answers 404 from then on; the record stays for audit.',
        tags: s.tags,
        params: s.ConversationParams,
        response: s.responses.statusChange,
      },
      config: user,
    },
    async (req) => {
      await service.setStatus(assistant, currentUser(req), conversationId(req.params.id), 'deleted');
      return { success: true, message: t(requestLocale(req), 'assistant.conversation.deleted') };
    },
  );

  app.put(
    '/assistant/conversations/:id/archive',
    {
      schema: {
        summary: 'Archive one of your conversations',
        operationId: 'archiveConversation',
        description: 'Moves the conversation to the archived status; it stays readable.',
        tags: s.tags,
        params: s.ConversationParams,
        response: s.responses.statusChange,
      },
      config: user,
    },
    async (req) => {
      await service.setStatus(assistant, currentUser(req), conversationId(req.params.id), 'archived');
      return { success: true, message: t(requestLocale(req), 'assistant.conversation.archived') };
    },
  );

  app.post(
    '/assistant/feedback',
    {
      schema: {
        summary: 'Send feedback about the platform',
        operationId: 'sendFeedback',
        description:
          "Stores the caller's feedback (a rating, a comment, optionally a conversation) for the staff to read.",
        tags: s.tags,
        body: s.FeedbackBody,
        response: s.responses.feedback,
      },
      config: user,
    },
    async (req, reply) => {
      const feedbackId = await service.addFeedback(assistant, currentUser(req), req.body);
      return reply
        .code(201)
        .send({ success: true, message: t(requestLocale(req), 'assistant.feedback.thanks'), feedback_id: feedbackId });
    },
  );

  app.get(
    '/admin/feedback',
    {
      schema: {
        summary: 'Feedback of all users (admins)',
        operationId: 'listFeedback',
        description: "Every user's feedback, newest first, paginated: for administrators.",
        tags: s.tags,
        querystring: s.FeedbackListQuery,
        response: s.responses.feedbackList,
      },
      config: { auth: 'admin', validationForm: 'assistant' },
    },
    async (req) => {
      const { type, page = 1, per_page: perPage = 20 } = req.query;
      const { rows, meta } = await service.listFeedback(assistant, { type, page, perPage });
      const data = rows.map((f) => ({
        id: f.id,
        type: f.type,
        subject: f.subject,
        content: f.content,
        rating: f.rating,
        user: f.author,
        created_at: f.created_at,
      }));
      return { success: true, data, meta };
    },
  );

  app.post(
    '/assistant/escalate',
    {
      schema: {
        summary: 'Escalate to a support ticket (30 requests a minute per IP)',
        operationId: 'escalateConversation',
        description:
          'Opens a support ticket from a conversation or a message, with or without a token (then with a contact address); 30 requests a minute per address.',
        tags: s.tags,
        body: s.EscalateBody,
        response: s.responses.escalate,
      },
      config: {
        auth: 'optional',
        validationForm: 'assistant',
        // The spec's throttle, whatever the platform default: per client IP (TRUST_PROXY decides
        // whether X-Forwarded-For is believed), shared through Redis when REDIS_URL is set.
        rateLimit: { ...ESCALATE_LIMIT, keyGenerator: (req: FastifyRequest) => req.ip, groupId: 'assistant-escalate' },
      },
      // Both fields are optional, so no body at all is a valid request.
      preValidation: async (req) => {
        if (req.body === undefined || req.body === null) req.body = {};
      },
    },
    async (req, reply) => {
      const locale = requestLocale(req);
      const result = await escalate(escalation, req.user, req.body);
      const message = t(locale, result.created ? 'assistant.escalate.created' : 'assistant.escalate.existing');
      return reply.code(result.created ? 201 : 200).send({ success: true, message, ticket_id: result.ticketId });
    },
  );
};

export default routes;
