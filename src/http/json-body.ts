// The JSON body parser. A body may be empty (PUT /archive with a Content-Type but no body);
// anything else must parse. Valid JSON that names a field `__proto__` (or a `constructor` holding
// a `prototype`) is refused as what it is: a field name that is not allowed (422 in the route's
// form, keyed by that field), not as malformed JSON (docs/decisions.md, "Forbidden field names").
import type { FastifyInstance } from 'fastify';
import { ValidationError } from '../core/errors.js';
import { registerMessages, t } from '../core/i18n.js';
import { requestLocale } from './i18n.js';

registerMessages({
  'validation.forbidden_key': { en: 'The field name :attribute is not allowed.', fa: 'نام فیلد :attribute مجاز نیست.' },
});

/** The dotted path of a forbidden key in a parsed JSON value, if any (iterative: any depth). */
export function forbiddenKeyPath(root: unknown): string | undefined {
  const pending: Array<[unknown, string]> = [[root, '']];
  while (pending.length) {
    const [value, base] = pending.pop()!;
    if (value === null || typeof value !== 'object') continue;
    for (const key of Object.keys(value)) {
      const field = base ? `${base}.${key}` : key;
      const child = (value as Record<string, unknown>)[key];
      if (key === '__proto__') return field;
      if (key === 'constructor' && child !== null && typeof child === 'object' && Object.hasOwn(child, 'prototype'))
        return `${field}.prototype`;
      pending.push([child, field]);
    }
  }
  return undefined;
}

export function registerJsonBody(app: FastifyInstance): void {
  const parseSafely = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const text = body as string;
    if (text.trim() === '') return done(null, undefined);
    return parseSafely(req, text, (error, parsed) => {
      if (!error) return done(null, parsed);
      // Refused: either not JSON at all (400) or JSON with a forbidden field name (422).
      let plain: unknown;
      try {
        plain = JSON.parse(text);
      } catch {
        return done(error, undefined);
      }
      const field = forbiddenKeyPath(plain);
      if (!field) return done(error, undefined);
      return done(
        new ValidationError({ [field]: [t(requestLocale(req), 'validation.forbidden_key', { attribute: field })] }),
        undefined,
      );
    });
  });
}
