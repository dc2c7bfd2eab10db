// The one error handler: every error leaves the service in the spec's body for its status.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  HttpError,
  ValidationError,
  localisedBody,
  renderFieldErrors,
  serviceUnavailable,
  validationBody,
} from '../core/errors.js';
import { registerMessages, t } from '../core/i18n.js';
import { requestLocale } from './i18n.js';
import { fieldErrorsFromSchema } from './validation.js';

registerMessages({
  'http.malformed_json': { en: 'The request body is not valid JSON.', fa: 'بدنهٔ درخواست JSON معتبر نیست.' },
  'http.bad_request': { en: 'The request is malformed.', fa: 'درخواست نادرست است.' },
  'http.too_large': { en: 'The request body is too large.', fa: 'بدنهٔ درخواست بیش از حد بزرگ است.' },
  'http.unsupported_media_type': {
    en: 'Unsupported content type: send application/json.',
    fa: 'نوع محتوا پشتیبانی نمی‌شود: application/json بفرستید.',
  },
  'http.unsupported_media_type_upload': {
    en: 'Unsupported content type: send application/json or multipart/form-data.',
    fa: 'نوع محتوا پشتیبانی نمی‌شود: application/json یا multipart/form-data بفرستید.',
  },
  'http.not_found': { en: 'The route :route could not be found.', fa: 'مسیر :route یافت نشد.' },
  'http.server_error': { en: 'Server Error', fa: 'خطای سرور' },
});

// Errors of a database (or attachment storage) that does not answer: the client gets 503 and may
// retry; nothing is lost.
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  // 57014: query_canceled, a statement cut off by DATABASE_STATEMENT_TIMEOUT_MS.
  '57014',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  'SQLITE_BUSY',
  'SQLITE_LOCKED',
  // The attachment storage (an S3 bucket) down, unreachable or failing: tickets/storage/s3.ts.
  'STORAGE_UNAVAILABLE',
]);
const UNAVAILABLE_MESSAGES = [
  /Connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /Query read timeout/i,
  /Client has encountered a connection error/i,
  /database is locked/i,
];

export function isUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return true;
  if (UNAVAILABLE_MESSAGES.some((re) => re.test(error.message))) return true;
  return error.cause !== undefined && error.cause !== error && isUnavailable(error.cause);
}

function send(reply: FastifyReply, status: number, body: unknown, headers: Record<string, string> = {}) {
  reply.headers(headers).code(status).type('application/json; charset=utf-8');
  return reply.send(body);
}

function takesUploads(req: FastifyRequest): boolean {
  const consumes = (req.routeOptions?.schema as { consumes?: unknown } | undefined)?.consumes;
  return Array.isArray(consumes) && consumes.includes('multipart/form-data');
}

export function handleError(error: FastifyError | Error, req: FastifyRequest, reply: FastifyReply) {
  if (error instanceof HttpError) {
    return send(reply, error.statusCode, localisedBody(error, requestLocale(req)), error.headers);
  }

  const form = req.routeOptions?.config?.validationForm ?? 'general';
  if (error instanceof ValidationError) {
    return send(reply, 422, validationBody(error.form ?? form, renderFieldErrors(error.errors, requestLocale(req))));
  }

  const fastifyError = error as FastifyError;
  if (fastifyError.validation) {
    return send(reply, 422, validationBody(form, fieldErrorsFromSchema(fastifyError.validation, requestLocale(req))));
  }

  switch (fastifyError.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return send(reply, 400, { success: false, message: t(requestLocale(req), 'http.malformed_json') });
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_REQ_FILE_TOO_LARGE':
    case 'FST_FILES_LIMIT':
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return send(reply, 413, { message: t(requestLocale(req), 'http.too_large') });
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      if (fastifyError.code === 'FST_ERR_CTP_INVALID_CONTENT_LENGTH')
        return send(reply, 400, { message: t(requestLocale(req), 'http.unsupported_media_type') });
      // An upload route takes either type, and says so.
      return send(reply, 415, {
        message: t(
          requestLocale(req),
          takesUploads(req) ? 'http.unsupported_media_type_upload' : 'http.unsupported_media_type',
        ),
      });
  }
  if (error instanceof SyntaxError && fastifyError.statusCode === 400) {
    return send(reply, 400, { success: false, message: t(requestLocale(req), 'http.malformed_json') });
  }

  if (isUnavailable(error)) {
    req.log.warn({ err: error }, 'dependency unavailable');
    const unavailable = serviceUnavailable();
    return send(reply, 503, unavailable.body, unavailable.headers);
  }

  // Any other client error raised by Fastify or a plugin (bad header, aborted upload): its status,
  // a generic sentence, never the internal text.
  const status = fastifyError.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return send(reply, status, { success: false, message: t(requestLocale(req), 'http.bad_request') });
  }

  req.log.error({ err: error, reqId: req.id }, 'unhandled error');
  return send(reply, 500, {
    success: false,
    message: t(requestLocale(req), 'http.server_error'),
    error: 'internal_error',
  });
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler(handleError);
  app.setNotFoundHandler((req, reply) => {
    const route = `${req.method} ${req.url.split('?')[0]!.slice(0, 200)}`;
    return send(reply, 404, { message: t(requestLocale(req), 'http.not_found', { route }) });
  });
}

/**
 * A request Node's HTTP parser refuses before Fastify sees it (a control character in a header, a
 * broken request line, headers over the size limit): answered in the platform's bodies, then the
 * connection is closed. 431 {message} for headers too large, 408 {message} for a request that
 * did not arrive in time, else 400 {success:false, message}.
 */
export function answerClientError(error: Error & { code?: string }, socket: import('node:net').Socket): void {
  if (!socket.writable) return;
  const [status, reason, body] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', { message: 'The request headers are too large.' }]
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', { message: 'The request took too long to arrive.' }]
        : [400, 'Bad Request', { success: false, message: t('en', 'http.bad_request') }];
  const text = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
  );
}
