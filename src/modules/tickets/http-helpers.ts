// Small pieces the ticket routes share: id parsing, deferred validation, sending a file.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ValidationError, msg, notFound, type FieldMessages } from '../../core/errors.js';
import { requestLocale } from '../../http/i18n.js';
import { fieldErrorsFromSchema } from '../../http/validation.js';
import { ticketNotFound } from './service.js';
import { canonicalId } from '../../core/ids.js';

/** A path id that is not a positive integer is a ticket that does not exist: the ticket 404. */
export function ticketIdFrom(raw: string): number {
  const id = canonicalId(raw);
  if (id === undefined) throw ticketNotFound(raw.slice(0, 100));
  return id;
}

export function attachmentIdFrom(raw: string): number {
  const id = canonicalId(raw);
  if (id === undefined) throw notFound(msg('tickets.attachment_not_found'));
  return id;
}

/**
 * Routes with attachValidation check ownership first (a stranger's ticket is 404 whatever the
 * body), then report schema errors and file errors together in the tickets 422 form.
 */
export function throwIfInvalid(req: FastifyRequest, extra: FieldMessages = {}): void {
  const schemaErrors = req.validationError?.validation
    ? fieldErrorsFromSchema(req.validationError.validation, requestLocale(req))
    : {};
  const errors: FieldMessages = { ...schemaErrors, ...extra };
  if (Object.keys(errors).length) throw new ValidationError(errors, 'tickets');
  if (req.validationError) throw req.validationError;
}

/** RFC 6266: an ASCII fallback and the exact name in UTF-8 (Persian names survive). */
export function contentDisposition(fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\%]/g, '_') || 'download';
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/** An attachment's bytes as a download (never inline), with its type, size and name. */
export function sendAttachment(
  reply: FastifyReply,
  file: { attachment: { file_type: string; file_name: string }; size: number; stream: unknown },
) {
  const type = file.attachment.file_type.startsWith('text/')
    ? `${file.attachment.file_type}; charset=utf-8`
    : file.attachment.file_type;
  return reply
    .header('content-type', type)
    .header('content-length', String(file.size))
    .header('content-disposition', contentDisposition(file.attachment.file_name))
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'private, no-store')
    .send(file.stream);
}
