// The assistant's rules: who answers, what is saved when, who may see which conversation.
import { performance } from 'node:perf_hooks';
import { nowIso } from '../../db/index.js';
import { forbidden, HttpError, msg, notFound, ValidationError, type FieldMessages } from '../../core/errors.js';
import { t } from '../../core/i18n.js';
import { fieldMessage } from '../../core/fields.js';
import { pageMeta, pageOffset, type PageMeta } from '../../core/pagination.js';
import type { AppDeps } from '../../core/deps.js';
import type { UserRecord } from '../users/service.js';
import { AGENT_CHOICES, agentById, chooseAgent, type AgentChoice, type AgentId } from './agents.js';
import { contextErrors, contextFacts } from './context.js';
import { conversationContext } from './conversation-context.js';
import { feedbackWithAuthors } from './feedback.js';
import type { KnowledgeBase, Passage } from './knowledge.js';
import './messages.js';
import { ProviderError, type AnswerProvider, type AnswerRequest, type StreamOptions } from './providers/types.js';
import { pageFromContext } from './page-context.js';
import * as repo from './repository.js';
import { suggestionsFor } from './suggestions.js';
import { conversationTitle } from './text.js';
import { understand } from './understanding.js';

export interface ChatInput {
  message: string;
  /** Read only for an admin (one of AGENT_CHOICES, or null for the default); ignored for anyone else. */
  agent?: unknown;
  /** null: a new conversation, as when absent. */
  conversation_id?: number | null;
  /** null: no context, as when absent. */
  context?: Record<string, unknown> | null;
}

const isAgentChoice = (value: unknown): value is AgentChoice => (AGENT_CHOICES as readonly unknown[]).includes(value);

export interface ChatResult {
  message: string;
  agent: AgentId;
  conversation_id: number;
  suggestions: string[];
  response_time_ms: number;
  sources: repo.MessageSource[];
}

export interface ChatMeta {
  requestId: string;
  startedAt: number;
}

/** A chat accepted and its user message saved, waiting for the answer. */
export interface ChatTurn {
  meta: ChatMeta;
  conversationId: number;
  request: AnswerRequest;
}

/** The client left a streamed chat; the partial answer is saved. */
export class ChatInterrupted extends Error {
  override name = 'ChatInterrupted';
}

export class AssistantService {
  constructor(
    private readonly deps: AppDeps,
    private readonly knowledgeBase: () => KnowledgeBase,
    readonly provider: AnswerProvider,
  ) {}

  /** Indexed on first use (or by the warm-up after the server listens), off the path to its first answer. */
  get knowledge(): KnowledgeBase {
    return this.knowledgeBase();
  }

  /** The conversation when the caller owns it: 404 when absent, 403 when another account's. */
  async ownedConversation(user: UserRecord, id: number): Promise<repo.ConversationRow> {
    const conversation = await repo.findConversation(this.deps.db, id);
    if (!conversation) throw notFound(msg('assistant.conversation.not_found'));
    if (conversation.user_id !== user.id) throw forbidden(msg('assistant.conversation.forbidden'));
    return conversation;
  }

  async chat(user: UserRecord, input: ChatInput, meta: ChatMeta): Promise<ChatResult> {
    return this.answer(await this.begin(user, input, meta));
  }

  /**
   * The part of a chat that can refuse it (validation, the conversation's owner): the user's
   * message is committed and the passages found. Errors here keep their JSON statuses, streamed or not.
   */
  async begin(user: UserRecord, input: ChatInput, meta: ChatMeta): Promise<ChatTurn> {
    const message = input.message.trim();
    const errors: FieldMessages = {};
    if (message === '') errors.message = [fieldMessage('required', 'message')];
    // A non-admin is answered by steward whatever `agent` holds, so only an admin's is checked.
    const agentAsked = user.is_admin ? (input.agent ?? undefined) : undefined;
    if (agentAsked !== undefined && !isAgentChoice(agentAsked)) errors.agent = [fieldMessage('in', 'agent')];
    Object.assign(errors, input.context ? contextErrors(input.context) : null);
    if (Object.keys(errors).length > 0) throw new ValidationError(errors);

    const existing =
      input.conversation_id == null ? undefined : await this.ownedConversation(user, input.conversation_id);
    // A deleted conversation cannot be continued; an archived one can, and becomes active again.
    if (existing?.status === 'deleted') throw notFound(msg('assistant.conversation.not_found'));
    // An admin continuing a conversation without naming an agent keeps the agent in force.
    const requested =
      (agentAsked as AgentChoice | undefined) ??
      (existing && user.is_admin ? (existing.agent_type as AgentId) : undefined);
    const agent = agentById(chooseAgent(user.is_admin, requested, message));

    // The user's message is committed before the provider is asked, so a failing provider never loses it.
    const conversationId = await this.deps.db.transaction().execute(async (trx) => {
      const now = nowIso();
      const conversation =
        existing ??
        (await repo.insertConversation(trx, {
          user_id: user.id,
          title: conversationTitle(message),
          agent_type: agent.id,
          last_message: message,
          now,
        }));
      await repo.insertMessage(trx, {
        conversation_id: conversation.id,
        role: 'user',
        content: message,
        agent: null,
        request_id: meta.requestId,
        response_time_ms: null,
        now,
      });
      if (existing)
        await repo.touchConversation(trx, conversation.id, {
          last_message: message,
          updated_at: now,
          status: 'active',
        });
      return conversation.id;
    });

    // A follow-up is read with the conversation's last exchanges, a vague message with its page.
    const page = pageFromContext(input.context);
    const { history, earlier } = existing
      ? await conversationContext(this.deps.db, conversationId, this.provider.name !== 'offline')
      : { history: [], earlier: [] };
    const { language, hits, weakMatch, passages } = understand(this.knowledge, { message, earlier, page });
    return {
      meta,
      conversationId,
      request: {
        agent,
        language,
        message,
        history,
        hits,
        weakMatch,
        passages,
        page,
        context: contextFacts(input.context),
      },
    };
  }

  /**
   * Asks the provider and saves its answer. With `stream`, the answer goes out piece by piece as
   * well; when the client leaves (stream.signal), what was written is saved marked interrupted
   * and ChatInterrupted is thrown.
   */
  async answer(turn: ChatTurn, stream?: StreamOptions): Promise<ChatResult> {
    const { conversationId, request } = turn;
    const { agent, language } = request;
    let written = '';
    const relay = stream && {
      signal: stream.signal,
      onDelta: (text: string) => {
        written += text;
        stream.onDelta(text);
      },
    };
    let answer: string;
    let used: Passage[];
    try {
      ({ content: answer, sources: used } = await this.provider.answer(request, relay));
    } catch (error) {
      if (stream?.signal.aborted) {
        await this.saveAnswer(turn, written, [], true);
        throw new ChatInterrupted();
      }
      if (!(error instanceof ProviderError)) throw error;
      const message = msg(`assistant.error.${error.code}`);
      throw new HttpError(500, { success: false, message: t('en', message.key), error: error.code }, {}, message);
    }

    const sources = used.map((p) => ({ id: p.id, title: p.question }));
    const responseTimeMs = await this.saveAnswer(turn, answer, sources, false);
    return {
      message: answer,
      agent: agent.id,
      conversation_id: conversationId,
      suggestions: suggestionsFor(this.knowledge, request, agent.id, language),
      response_time_ms: responseTimeMs,
      sources,
    };
  }

  /** Saves the assistant's message and moves the conversation on; returns the response time. */
  private async saveAnswer(
    turn: ChatTurn,
    content: string,
    sources: repo.MessageSource[],
    interrupted: boolean,
  ): Promise<number> {
    const { meta, conversationId, request } = turn;
    const responseTimeMs = Math.max(0, Math.round(performance.now() - meta.startedAt));
    await this.deps.db.transaction().execute(async (trx) => {
      const now = nowIso();
      await repo.insertMessage(trx, {
        conversation_id: conversationId,
        role: 'assistant',
        content,
        agent: request.agent.id,
        request_id: meta.requestId,
        response_time_ms: responseTimeMs,
        sources,
        interrupted,
        now,
      });
      await repo.touchConversation(trx, conversationId, {
        last_message: content,
        updated_at: now,
        agent_type: request.agent.id,
      });
    });
    return responseTimeMs;
  }

  async listConversations(
    user: UserRecord,
    query: { status?: repo.ConversationStatus; agent?: AgentChoice; page: number; perPage: number },
  ): Promise<{ rows: repo.ConversationRow[]; pagination: PageMeta }> {
    const { rows, total } = await repo.listConversations(this.deps.db, {
      userId: user.id,
      status: query.status ?? 'active',
      // Conversations store the agent that answered, never auto: the auto filter means "any agent".
      agent: query.agent === 'auto' ? undefined : query.agent,
      limit: query.perPage,
      offset: pageOffset(query.page, query.perPage),
    });
    return { rows, pagination: pageMeta(total, query.page, query.perPage) };
  }

  async showConversation(user: UserRecord, id: number) {
    const conversation = await this.ownedConversation(user, id);
    const messages = await repo.listMessages(this.deps.db, id);
    return { conversation, messages };
  }

  async setStatus(user: UserRecord, id: number, status: 'archived' | 'deleted'): Promise<void> {
    await this.ownedConversation(user, id);
    await repo.setConversationStatus(this.deps.db, id, status);
  }

  async addFeedback(
    user: UserRecord,
    input: { type: string; subject: string; content: string; rating?: number },
  ): Promise<number> {
    const errors: FieldMessages = {};
    for (const field of ['subject', 'content'] as const) {
      if (input[field].trim() === '') errors[field] = [fieldMessage('required', field)];
    }
    if (Object.keys(errors).length > 0) throw new ValidationError(errors);
    return repo.insertFeedback(this.deps.db, {
      user_id: user.id,
      type: input.type,
      subject: input.subject,
      content: input.content,
      rating: input.rating ?? null,
      now: nowIso(),
    });
  }

  async listFeedback(query: { type?: string; page: number; perPage: number }) {
    return feedbackWithAuthors(this.deps.db, query);
  }

  async totalConversations(): Promise<number> {
    return repo.countConversations(this.deps.db);
  }
}
