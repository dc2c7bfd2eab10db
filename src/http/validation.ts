// Turns schema validation failures into the spec's `errors` object: keyed by the field as the
// client sent it (subject, tags.1), each value an array of readable sentences in the request's
// language. The sentences are core/fields.ts's, which services use for their own checks.
import type { FastifySchemaValidationError } from 'fastify';
import { renderMessage, type FieldErrors } from '../core/errors.js';
import { fieldMessage as fieldRef, type Rule } from '../core/fields.js';
import { t, type Locale } from '../core/i18n.js';

/** A field's sentence in the given language. */
function fieldMessage(locale: Locale, rule: Rule, field: string, params: Record<string, string | number> = {}): string {
  return renderMessage(locale, fieldRef(rule, field, params));
}

/** /tags/1 -> tags.1 ; '' -> '' */
function pathToField(instancePath: string): string {
  return instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');
}

function join(base: string, key: string): string {
  return base ? `${base}.${key}` : key;
}

interface AjvLikeError extends FastifySchemaValidationError {
  parentSchema?: { type?: unknown };
}

function typeRule(expected: unknown): Rule {
  const type = Array.isArray(expected) ? expected.find((t) => t !== 'null') : expected;
  switch (type) {
    case 'integer':
      return 'integer';
    case 'number':
      return 'numeric';
    case 'string':
      return 'string';
    case 'boolean':
      return 'boolean';
    case 'array':
      return 'array';
    case 'object':
      return 'object';
    default:
      return 'invalid';
  }
}

/** One sentence for one Ajv error, and the field it belongs to. */
function describe(error: AjvLikeError, locale: Locale): { field: string; message: string } {
  const field = pathToField(error.instancePath);
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required': {
      const name = join(field, String(p.missingProperty));
      return { field: name, message: fieldMessage(locale, 'required', name) };
    }
    case 'minLength':
      // An empty string is "missing" to a client, as in Laravel's required rule.
      return p.limit === 1
        ? { field, message: fieldMessage(locale, 'required', field) }
        : { field, message: fieldMessage(locale, 'min.string', field, { min: Number(p.limit) }) };
    case 'maxLength':
      return { field, message: fieldMessage(locale, 'max.string', field, { max: Number(p.limit) }) };
    case 'minimum':
    case 'exclusiveMinimum':
      return { field, message: fieldMessage(locale, 'min.numeric', field, { min: Number(p.limit) }) };
    case 'maximum':
    case 'exclusiveMaximum':
      return { field, message: fieldMessage(locale, 'max.numeric', field, { max: Number(p.limit) }) };
    case 'minItems':
      return { field, message: fieldMessage(locale, 'min.array', field, { min: Number(p.limit) }) };
    case 'maxItems':
    case 'maxProperties':
      return { field, message: fieldMessage(locale, 'max.array', field, { max: Number(p.limit) }) };
    case 'enum':
    case 'const':
    case 'anyOf':
    case 'oneOf':
      return { field, message: fieldMessage(locale, 'in', field) };
    case 'type':
      if (field === '') return { field: 'body', message: t(locale, 'validation.body') };
      return { field, message: fieldMessage(locale, typeRule(p.type), field) };
    case 'format':
    case 'pattern':
      return { field, message: fieldMessage(locale, 'format', field) };
    default:
      return { field: field || 'body', message: fieldMessage(locale, 'invalid', field || 'body') };
  }
}

export function fieldErrorsFromSchema(errors: FastifySchemaValidationError[], locale: Locale): FieldErrors {
  const byField = new Map<string, { messages: string[]; union: boolean }>();
  for (const error of errors as AjvLikeError[]) {
    const { field, message } = describe(error, locale);
    const entry = byField.get(field) ?? { messages: [], union: false };
    byField.set(field, entry);
    // A union (string or null) reports one error per branch and then its own: the first branch's
    // sentence ("must be a string") says more than the union's ("is invalid").
    if (error.keyword === 'anyOf' || error.keyword === 'oneOf') entry.union = true;
    if (!entry.messages.includes(message)) entry.messages.push(message);
  }
  // Own properties even for a field named __proto__ (an assignment would set the prototype).
  return Object.fromEntries(
    [...byField].map(([field, { messages, union }]) => [field, union ? messages.slice(0, 1) : messages]),
  );
}
