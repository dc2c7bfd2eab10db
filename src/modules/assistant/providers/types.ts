// One interface for every way of answering: the offline retrieval provider and any
// OpenAI-compatible chat-completions server.
import type { Locale } from '../../../core/i18n.js';
import type { Agent } from '../agents.js';
import type { Hit, Passage } from '../knowledge.js';
import type { PageRef } from '../page-context.js';

/** The chat's context as facts: [path, value] pairs, each one line of text (see assistant/context.ts). */
export type ContextFacts = Array<[path: string, value: string]>;

export interface AnswerRequest {
  agent: Agent;
  /** The language of the user's message; the answer is written in it. */
  language: Locale;
  message: string;
  /** Earlier messages of the conversation, oldest first, without the current one. */
  history: Array<{ role: 'user' | 'assistant'; content: string }>;
  /** The best knowledge-base passages for the message, best first. */
  hits: Hit[];
  /** True when no passage matches the message well. */
  weakMatch: boolean;
  /** The passages an answer is made of, best first (one, or two for a close second or a second question); none on a weak match. */
  passages: Passage[];
  /** The page of the app the member asks from (context.page), when the client names one. */
  page?: PageRef;
  /** Facts the client sent about the user's screen; information only. */
  context: ContextFacts;
}

export interface Answer {
  content: string;
  /** The knowledge-base passages the answer was made from (offline) or given to the model, best first. */
  sources: Passage[];
}

export type ProviderName = 'offline' | 'openai';

/** A streamed answer (POST /api/assistant/chat with Accept: text/event-stream). */
export interface StreamOptions {
  /** Called with each piece of the answer as it is written. */
  onDelta: (text: string) => void;
  /** Aborted when the client goes away: the provider stops (and the model call with it) and rejects. */
  signal: AbortSignal;
}

export interface AnswerProvider {
  readonly name: ProviderName;
  /** The whole answer; with `stream`, also piece by piece as it is written. */
  answer(request: AnswerRequest, stream?: StreamOptions): Promise<Answer>;
}

/** A provider that could not answer; code is the short string the chat's 500 body carries. */
export class ProviderError extends Error {
  override name = 'ProviderError';
  constructor(
    readonly code: 'llm_timeout' | 'llm_error',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
