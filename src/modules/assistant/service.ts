// The assistant's rules: who answers, what is saved when, who may see which conversation.
import { performance } from 'node:perf_hooks';
import { nowIso } from '../../db/index.js';
import { forbidden, HttpError, notFound, ValidationError, type FieldErrors } from '../../http/errors.js';
import { t, type Locale } from '../../http/i18n.js';
import { pageMeta, pageOffset, type PageMeta } from '../../http/pagination.js';
import type { AppDeps } from '../../http/types.js';
import { fieldMessage } from '../../http/validation.js';
import { usersByIds, type UserRecord } from '../users/service.js';
import { AGENT_CHOICES, agentById, chooseAgent, type AgentChoice, type AgentId } from './agents.js';
import { contextErrors, contextFacts } from './context.js';
import type { Hit, KnowledgeBase, Passage } from './knowledge.js';
import './messages.js';
import { ProviderError, type AnswerProvider, type AnswerRequest, type StreamOptions } from './providers/types.js';
import * as repo from './repository.js';
import { conversationTitle } from './text.js';
import { understand } from './understanding.js';

/** Messages of history a language model sees at most (then trimmed to the token budget). */
const HISTORY_MESSAGES = 20;
const MAX_SUGGESTIONS = 3;

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
  locale: Locale;
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
    readonly knowledge: KnowledgeBase,
    readonly provider: AnswerProvider,
  ) {}

  /** The conversation when the caller owns it: 404 when absent, 403 when another account's. */
  async ownedConversation(user: UserRecord, id: number, locale: Locale): Promise<repo.ConversationRow> {
    const conversation = await repo.findConversation(this.deps.db, id);
    if (!conversation) throw notFound(t(locale, 'assistant.conversation.not_found'));
    if (conversation.user_id !== user.id) throw forbidden(t(locale, 'assistant.conversation.forbidden'));
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
    const { locale } = meta;
    const message = input.message.trim();
    const errors: FieldErrors = {};
    if (message === '') errors.message = [fieldMessage(locale, 'required', 'message')];
    // A non-admin is answered by steward whatever `agent` holds, so only an admin's is checked.
    const agentAsked = user.is_admin ? (input.agent ?? undefined) : undefined;
    if (agentAsked !== undefined && !isAgentChoice(agentAsked)) errors.agent = [fieldMessage(locale, 'in', 'agent')];
    Object.assign(errors, input.context ? contextErrors(input.context, locale) : null);
    if (Object.keys(errors).length > 0) throw new ValidationError(errors);

    const existing =
      input.conversation_id == null ? undefined : await this.ownedConversation(user, input.conversation_id, locale);
    // A deleted conversation cannot be continued; an archived one can, and becomes active again.
    if (existing?.status === 'deleted') throw notFound(t(locale, 'assistant.conversation.not_found'));
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

    const { language, hits, weakMatch, passages } = understand(this.knowledge, { message });
    const history = existing && this.provider.name !== 'offline' ? await this.history(conversationId) : [];
    return {
      meta,
      conversationId,
      request: { agent, language, message, history, hits, weakMatch, passages, context: contextFacts(input.context) },
    };
  }

  /**
   * Asks the provider and saves its answer. With `stream`, the answer goes out piece by piece as
   * well; when the client leaves (stream.signal), what was written is saved marked interrupted
   * and ChatInterrupted is thrown.
   */
  async answer(turn: ChatTurn, stream?: StreamOptions): Promise<ChatResult> {
    const { meta, conversationId, request } = turn;
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
      throw new HttpError(500, {
        success: false,
        message: t(meta.locale, `assistant.error.${error.code}`),
        error: error.code,
      });
    }

    const sources = used.map((p) => ({ id: p.id, title: p.question }));
    const responseTimeMs = await this.saveAnswer(turn, answer, sources, false);
    return {
      message: answer,
      agent: agent.id,
      conversation_id: conversationId,
      suggestions: this.suggestions(request.hits, request.weakMatch, agent.id, language),
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

  /** Earlier messages (without the one just saved), oldest first. */
  private async history(conversationId: number): Promise<Array<{ role: 'user' | 'assistant'; content: string }>> {
    const rows = await repo.recentMessages(this.deps.db, conversationId, HISTORY_MESSAGES + 1);
    return rows.slice(0, -1).map((r) => ({ role: r.role === 'assistant' ? 'assistant' : 'user', content: r.content }));
  }

  /** Related questions of the knowledge base; on a weak match, escalation and the agent's own follow-ups. */
  suggestions(hits: Hit[], weakMatch: boolean, agentId: AgentId, language: Locale): string[] {
    const agent = agentById(agentId);
    if (weakMatch)
      return [t(language, 'assistant.suggest.escalate'), ...agent.followUps[language]].slice(0, MAX_SUGGESTIONS);
    const best = hits[0]!.passage;
    const questions = [...hits.slice(1).map((h) => h.passage), ...this.knowledge.related(best, MAX_SUGGESTIONS)]
      .filter((p) => p.id !== best.id)
      .map((p) => p.question);
    return [...new Set(questions)].slice(0, MAX_SUGGESTIONS);
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

  async showConversation(user: UserRecord, id: number, locale: Locale) {
    const conversation = await this.ownedConversation(user, id, locale);
    const messages = await repo.listMessages(this.deps.db, id);
    return { conversation, messages };
  }

  async setStatus(user: UserRecord, id: number, status: 'archived' | 'deleted', locale: Locale): Promise<void> {
    await this.ownedConversation(user, id, locale);
    await repo.setConversationStatus(this.deps.db, id, status);
  }

  async addFeedback(
    user: UserRecord,
    input: { type: string; subject: string; content: string; rating?: number },
    locale: Locale,
  ): Promise<number> {
    const errors: Record<string, string[]> = {};
    for (const field of ['subject', 'content'] as const) {
      if (input[field].trim() === '') errors[field] = [fieldMessage(locale, 'required', field)];
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
    const { rows, total } = await repo.listFeedback(this.deps.db, {
      type: query.type,
      limit: query.perPage,
      offset: pageOffset(query.page, query.perPage),
    });
    const authors = await usersByIds(
      this.deps.db,
      rows.map((row) => row.user_id),
    );
    return {
      rows: rows.map((row) => ({ ...row, author: authorOf(row.user_id, authors) })),
      meta: pageMeta(total, query.page, query.perPage),
    };
  }

  async totalConversations(): Promise<number> {
    return repo.countConversations(this.deps.db);
  }
}

/** The author of a feedback row; user_id is a foreign key, so a missing user is a broken database. */
function authorOf(
  userId: number,
  authors: Map<number, UserRecord>,
): Pick<UserRecord, 'id' | 'first_name' | 'last_name' | 'email'> {
  const author = authors.get(userId);
  if (!author) throw new Error(`feedback refers to user ${userId}, who does not exist`);
  return { id: author.id, first_name: author.first_name, last_name: author.last_name, email: author.email };
}
