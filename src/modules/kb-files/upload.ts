// The multipart body of POST /api/admin/kb/files, read before validation: the text fields become
// the body the route schema validates, the one file (the part named file) is read into memory up
// to the size limit (20 MB, so a buffer is cheaper than a temporary file) and checked by name.
// What is wrong with it becomes a field error of `file`, thrown after the schema's own checks.
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { HttpError, type FieldMessages } from '../../core/errors.js';
import { fieldMessage } from '../../core/fields.js';
import { t } from '../../core/i18n.js';
import { requestLocale } from '../../http/i18n.js';
import { ACCEPTED_EXTENSIONS, DOCUMENT_KINDS, MAX_UPLOAD_BYTES, type DocumentKind } from './limits.js';

export interface ReadUpload {
  file?: { fileName: string; kind: DocumentKind; bytes: Buffer };
  errors: FieldMessages;
}

declare module 'fastify' {
  interface FastifyRequest {
    kbUpload?: ReadUpload;
  }
}

/** Beyond these the parser refuses the request (413): one file, a few fields. */
const PARSER_LIMITS = { fileSize: MAX_UPLOAD_BYTES - 1, files: 1, fields: 10, parts: 12, fieldSize: 4096 };
const TEXT_FIELDS = new Set(['title', 'lang']);

export async function registerDocumentUploads(app: FastifyInstance): Promise<void> {
  await app.register(multipart, { limits: PARSER_LIMITS, throwFileSizeLimit: false });
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A name without directories or control characters, at most 255 characters. */
function cleanName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this removes
  const printable = base.replace(/[\u0000-\u001f\u007f]/g, '');
  return printable.trim().slice(-255);
}

/** preValidation hook of the upload route. */
export async function readDocumentUpload(req: FastifyRequest): Promise<void> {
  if (!req.isMultipart()) {
    throw new HttpError(415, { message: t(requestLocale(req), 'kb_files.multipart_only') });
  }
  const locale = requestLocale(req);
  const state: ReadUpload = { errors: {} };
  req.kbUpload = state;
  const body: Record<string, string> = {};
  try {
    for await (const part of req.parts()) {
      if (part.type === 'field') {
        // Empty optional fields count as absent, as an HTML form sends them.
        if (TEXT_FIELDS.has(part.fieldname) && part.value !== '') body[part.fieldname] = String(part.value);
        continue;
      }
      const bytes = await readAll(part.file);
      if (part.fieldname !== 'file') continue;
      const fileName = cleanName(part.filename ?? '');
      const extension = fileName.includes('.') ? fileName.slice(fileName.lastIndexOf('.') + 1).toLowerCase() : '';
      const kind = DOCUMENT_KINDS[extension as keyof typeof DOCUMENT_KINDS];
      if (!kind) state.errors.file = [fieldMessage('mimes', 'file', { values: ACCEPTED_EXTENSIONS.join(', ') })];
      else if (part.file.truncated)
        state.errors.file = [fieldMessage('file_max', 'file', { max: MAX_UPLOAD_BYTES / 1024 })];
      else if (bytes.length === 0) state.errors.file = [fieldMessage('file', 'file')];
      else state.file = { fileName, kind, bytes };
    }
  } catch (error) {
    // Parser limits keep their meaning (413); anything else is a broken body.
    const code = (error as { code?: string }).code;
    if (typeof code === 'string' && code.startsWith('FST_')) throw error;
    throw new HttpError(400, { success: false, message: t(locale, 'http.bad_request') });
  }
  if (!state.file && !state.errors.file) state.errors.file = [fieldMessage('required', 'file')];
  req.body = body;
}
