// The chat's context object: small key-value facts about the user's screen. Capped so it cannot
// bloat a prompt, and kept apart from who the user is: it never changes the user, role or agent.
import type { FieldErrors } from '../../http/errors.js';
import { t, type Locale } from '../../http/i18n.js';
import type { ContextValue } from './providers/types.js';

export const CONTEXT_MAX_KEYS = 20;
export const CONTEXT_MAX_KEY_LENGTH = 64;
export const CONTEXT_MAX_VALUE_LENGTH = 500;

function isContextValue(value: unknown): value is ContextValue {
  if (typeof value === 'string') return Array.from(value).length <= CONTEXT_MAX_VALUE_LENGTH;
  if (typeof value === 'number') return Number.isFinite(value);
  return typeof value === 'boolean';
}

/** Field errors of a context object, or null when it is acceptable. */
export function contextErrors(context: Record<string, unknown>, locale: Locale): FieldErrors | null {
  const errors: FieldErrors = {};
  const keys = Object.keys(context);
  const general: string[] = [];
  if (keys.length > CONTEXT_MAX_KEYS) general.push(t(locale, 'assistant.validation.context_keys', { max: CONTEXT_MAX_KEYS }));
  if (keys.some((k) => Array.from(k).length > CONTEXT_MAX_KEY_LENGTH || k.trim() === '')) {
    general.push(t(locale, 'assistant.validation.context_key_length', { max: CONTEXT_MAX_KEY_LENGTH }));
  }
  if (general.length > 0) errors.context = general;
  for (const key of keys.slice(0, CONTEXT_MAX_KEYS)) {
    if (Array.from(key).length > CONTEXT_MAX_KEY_LENGTH) continue;
    if (!isContextValue(context[key])) errors[`context.${key}`] = [t(locale, 'assistant.validation.context_value', { key, max: CONTEXT_MAX_VALUE_LENGTH })];
  }
  return Object.keys(errors).length > 0 ? errors : null;
}
