// The chat's context object: facts about the user's screen, as the platform's front-end sends
// them ({"page": {"module": "projects", "resource_id": 12}}). Any JSON value is accepted inside
// bounds that keep it from bloating a prompt: its size as JSON, how deeply it nests, how many keys
// it has in all. It is kept apart from who the user is: it never changes the user, role or agent,
// and reaches a model only as labelled facts, one line each (page.module: projects).
import { msg, type FieldMessages, type MessageRef } from '../../core/errors.js';
import type { ContextFacts } from './providers/types.js';

/** Bytes of the context serialized as JSON (UTF-8). */
export const CONTEXT_MAX_BYTES = 8192;
/** Levels of objects and arrays, the context object itself being the first. */
export const CONTEXT_MAX_DEPTH = 4;
/** Object keys at every level, counted together. */
export const CONTEXT_MAX_KEYS = 50;
export const CONTEXT_MAX_KEY_LENGTH = 64;

interface Shape {
  depth: number;
  keys: number;
  badKey: boolean;
}

/** Depth, key count and key lengths; stops descending past the depth bound, so any nesting is safe to measure. */
function measure(value: unknown, level: number, shape: Shape): void {
  if (value === null || typeof value !== 'object') return;
  shape.depth = Math.max(shape.depth, level);
  if (level > CONTEXT_MAX_DEPTH) return;
  const children = Array.isArray(value) ? value : Object.values(value);
  if (!Array.isArray(value)) {
    for (const key of Object.keys(value)) {
      shape.keys += 1;
      const length = Array.from(key).length;
      if (length === 0 || length > CONTEXT_MAX_KEY_LENGTH || key.trim() === '') shape.badKey = true;
    }
  }
  for (const child of children) measure(child, level + 1, shape);
}

/** Field errors of a context object (all keyed `context`), or null when it is within bounds. */
export function contextErrors(context: Record<string, unknown>): FieldMessages | null {
  const shape: Shape = { depth: 0, keys: 0, badKey: false };
  measure(context, 1, shape);
  const messages: MessageRef[] = [];
  if (shape.depth > CONTEXT_MAX_DEPTH)
    messages.push(msg('assistant.validation.context_depth', { max: CONTEXT_MAX_DEPTH }));
  if (shape.keys > CONTEXT_MAX_KEYS) messages.push(msg('assistant.validation.context_keys', { max: CONTEXT_MAX_KEYS }));
  if (shape.badKey) messages.push(msg('assistant.validation.context_key_length', { max: CONTEXT_MAX_KEY_LENGTH }));
  // Serialized only once the depth is known to be small: stringify recurses.
  if (shape.depth <= CONTEXT_MAX_DEPTH && Buffer.byteLength(JSON.stringify(context)) > CONTEXT_MAX_BYTES) {
    messages.push(msg('assistant.validation.context_size', { max: CONTEXT_MAX_BYTES }));
  }
  return messages.length > 0 ? { context: messages } : null;
}

/** One line of text: line breaks and other control characters become spaces, so a value cannot pose as another fact or a heading. */
export function oneLine(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this removes
  return text.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ').trim();
}

function isScalar(value: unknown): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

/**
 * The context as flat facts keyed by their path (page.module, items.0.name). Null values and empty
 * containers say nothing and are left out; an array of plain values is one fact, its values
 * joined with commas.
 */
export function contextFacts(context: Record<string, unknown> | null | undefined): ContextFacts {
  const facts: ContextFacts = [];
  const visit = (path: string, value: unknown): void => {
    if (isScalar(value)) {
      facts.push([oneLine(path), oneLine(String(value))]);
    } else if (Array.isArray(value)) {
      if (value.length > 0 && value.every(isScalar))
        facts.push([oneLine(path), value.map((v) => oneLine(String(v))).join(', ')]);
      else for (const [i, item] of value.entries()) visit(`${path}.${i}`, item);
    } else if (value !== null && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) visit(path ? `${path}.${key}` : key, child);
    }
  };
  visit('', context ?? {});
  return facts;
}
