import type { Config } from '../../../config.js';
import { OfflineProvider } from './offline.js';
import { OpenAiProvider } from './openai.js';
import type { AnswerProvider } from './types.js';

export class ProviderConfigError extends Error {
  override name = 'ProviderConfigError';
}

/** The OpenAI-compatible provider when LLM_BASE_URL is set, else the offline one. */
export function providerFromConfig(config: Config): AnswerProvider {
  if (!config.LLM_BASE_URL) return new OfflineProvider();
  if (!config.LLM_MODEL) {
    throw new ProviderConfigError(
      'LLM_MODEL must be set when LLM_BASE_URL is set (for example LLM_MODEL=llama3.2 for Ollama)',
    );
  }
  return new OpenAiProvider({
    baseURL: config.LLM_BASE_URL,
    apiKey: config.LLM_API_KEY,
    model: config.LLM_MODEL,
    timeoutMs: config.LLM_TIMEOUT_MS,
    maxTokens: config.LLM_MAX_TOKENS,
  });
}
