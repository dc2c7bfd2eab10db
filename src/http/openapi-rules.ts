// Rules the service checks in code, written into the OpenAPI document as JSON Schema where JSON
// Schema can say them, so a client generator and a contract tester see them. They are added to the
// document only: the service keeps checking them in code, with the spec's messages (a schema
// keyword would answer Ajv's wording instead). What JSON Schema cannot say (keys counted over all
// levels of the chat context, its size in bytes) stays in the description.
// test/http/openapi-rules.test.ts holds the two to each other: whatever the document refuses, the
// service refuses.
import { CONTEXT_MAX_DEPTH, CONTEXT_MAX_KEY_LENGTH, CONTEXT_MAX_KEYS } from '../modules/assistant/context.js';
import { CHILD_LEVEL_NAMES } from '../modules/geo/keys.js';

type Json = Record<string, unknown>;

/** A pattern matching the words in any letter case, as JSON Schema patterns have no flags. */
export function anyCasePattern(words: readonly string[]): string {
  const anyCase = (word: string) =>
    [...word].map((c) => (c.toLowerCase() === c.toUpperCase() ? c : `[${c.toUpperCase()}${c.toLowerCase()}]`)).join('');
  return `^(${words.map(anyCase).join('|')})$`;
}

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

export const LEVEL_PATTERN = anyCasePattern(CHILD_LEVEL_NAMES);

/** Adds the rules to the operations of the document (before its named schemas are hoisted). */
export function addDocumentedRules(paths: Record<string, Record<string, Json>>): void {
  const chat = paths['/api/assistant/chat']?.post?.requestBody as
    | { content?: Record<string, { schema: Json }> }
    | undefined;
  const context = (chat?.content?.['application/json']?.schema.properties as Json | undefined)?.context as
    | { anyOf?: Json[] }
    | undefined;
  if (context?.anyOf)
    context.anyOf = context.anyOf.map((branch) =>
      branch.type === 'object' ? { ...branch, ...contextSchema() } : branch,
    );
  const children = paths['/api/geographic/{level}/{parentId}/children']?.get;
  for (const parameter of (children?.parameters as Json[] | undefined) ?? []) {
    if (parameter.name === 'level' && parameter.in === 'path')
      parameter.schema = { ...(parameter.schema as Json), pattern: LEVEL_PATTERN };
  }
}
