// The chat context's bounds as JSON Schema, for the OpenAPI document only: the route keeps checking
// them in code (context.ts) so its 422 bodies keep the spec's wording. What JSON Schema cannot say
// (keys counted over all levels, the size in bytes) stays in the description.
// test/http/openapi-rules.test.ts holds the two to each other: whatever the document refuses, the
// service refuses.
import { CONTEXT_MAX_DEPTH, CONTEXT_MAX_KEY_LENGTH, CONTEXT_MAX_KEYS } from './context.js';

type Json = Record<string, unknown>;

const SCALAR = { type: ['string', 'number', 'boolean', 'null'] };

/** A value inside the context at `level`: any scalar; an object or array only down to CONTEXT_MAX_DEPTH levels. */
function valueAt(level: number): Json {
  return level > CONTEXT_MAX_DEPTH
    ? SCALAR
    : { anyOf: [SCALAR, objectAt(level), { type: 'array', items: valueAt(level + 1) }] };
}

/** An object of the context at `level` (1: the context itself): keys 1-64 characters, not blank. */
function objectAt(level: number): Json {
  return {
    type: 'object',
    maxProperties: CONTEXT_MAX_KEYS,
    propertyNames: { minLength: 1, maxLength: CONTEXT_MAX_KEY_LENGTH, pattern: '\\S' },
    additionalProperties: valueAt(level + 1),
  };
}

/** The chat context as JSON Schema can say it (the byte size and the key total over all levels stay prose). */
export function contextSchema(): Json {
  return objectAt(1);
}
