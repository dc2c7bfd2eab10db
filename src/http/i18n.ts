// The edge's side of i18n: the language of a request, from its Accept-Language header. The
// catalogues and t() are in core/i18n.ts.
import type { FastifyRequest } from 'fastify';
import { localeFromHeader, type Locale } from '../core/i18n.js';

export function requestLocale(req: FastifyRequest): Locale {
  return localeFromHeader(req.headers['accept-language']);
}
