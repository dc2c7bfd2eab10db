// One interface for every way of answering: the offline retrieval provider and any
// OpenAI-compatible chat-completions server.
import type { Locale } from '../../../http/i18n.js';
import type { Agent } from '../agents.js';
import type { Hit, Passage } from '../knowledge.js';

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
  /** Facts the client sent about the user's screen; information only. */
  context: ContextFacts;
}

export interface Answer {
  content: string;
  /** The knowledge-base passages the answer was made from (offline) or given to the model, best first. */
  sources: Passage[];
}

export type ProviderName = 'offline' | 'openai';

export interface AnswerProvider {
  readonly name: ProviderName;
  answer(request: AnswerRequest): Promise<Answer>;
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
