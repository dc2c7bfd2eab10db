// Shared TypeBox pieces: the error bodies of the spec (for response schemas and the OpenAPI
// document) and small building blocks the modules reuse.
import { Type, type TSchema, type TUnsafe } from 'typebox';
import { DOCUMENT_AS } from './openapi-document.js';

/** The largest id: ids are 32-bit integer columns, a larger number would fail the query on PostgreSQL. */
export const MAX_ID = 2_147_483_647;

const FieldErrorsSchema = Type.Record(Type.String(), Type.Array(Type.String()), {
  description: 'Messages keyed by the field as the client sent it (subject, tags.0, attachments.1).',
});

export const ErrorSchemas = {
  /** 400 business rule or unreadable body, 403, 404 conversation/file: {success:false, message}. */
  failure: Type.Object(
    { success: Type.Boolean(), message: Type.String() },
    {
      additionalProperties: true,
      title: 'Failure',
      description: '{success:false, message}: a refused action, an unreadable body, 403.',
    },
  ),
  /** 401, 404 notification/ticket/route, 405, 413, 415, 429, 503: {message}. */
  message: Type.Object(
    { message: Type.String() },
    { additionalProperties: true, title: 'ErrorMessage', description: '{message}: 401, 404, 405, 413, 415, 429, 503.' },
  ),
  /** 422, in any of the spec's three forms (assistant: no message). */
  validation: Type.Object(
    { success: Type.Boolean(), message: Type.Optional(Type.String()), errors: FieldErrorsSchema },
    { additionalProperties: true, title: 'ValidationError', description: '422 in any of the three forms.' },
  ),
  /** 500: {success:false, message, error}. */
  server: Type.Object(
    { success: Type.Boolean(), message: Type.String(), error: Type.Optional(Type.String()) },
    { additionalProperties: true, title: 'ServerError' },
  ),
};

/** The 422 body of each validation form (errors.ts validationBody), for the OpenAPI document. */
export const ValidationErrorSchemas = {
  assistant: Type.Object(
    { success: Type.Boolean(), errors: FieldErrorsSchema },
    { title: 'AssistantValidationError', description: 'Assistant endpoints: {success:false, errors}.' },
  ),
  tickets: Type.Object(
    { success: Type.Boolean(), message: Type.String({ description: 'Validation error.' }), errors: FieldErrorsSchema },
    { title: 'TicketValidationError', description: 'Ticket endpoints: message "Validation error.".' },
  ),
  general: Type.Object(
    {
      success: Type.Boolean(),
      message: Type.String({ description: 'The given data was invalid.' }),
      errors: FieldErrorsSchema,
    },
    { title: 'GeneralValidationError', description: 'Other endpoints: message "The given data was invalid.".' },
  ),
};

/** Response schemas for the error statuses a route can answer, for the OpenAPI document. */
export function errorResponses(
  ...statuses: Array<400 | 401 | 403 | 404 | 413 | 415 | 422 | 429 | 500 | 503>
): Record<number, TSchema> {
  const byStatus: Record<number, TSchema> = {
    400: ErrorSchemas.failure,
    401: ErrorSchemas.message,
    403: ErrorSchemas.failure,
    404: Type.Union([ErrorSchemas.failure, ErrorSchemas.message]),
    413: ErrorSchemas.message,
    415: ErrorSchemas.message,
    422: ErrorSchemas.validation,
    429: ErrorSchemas.message,
    500: ErrorSchemas.server,
    503: ErrorSchemas.message,
  };
  return Object.fromEntries(statuses.map((s) => [s, byStatus[s]!]));
}

/**
 * Pattern for client text that is stored or compared in SQL: no NUL character, which PostgreSQL
 * cannot hold in text (a 500 otherwise). Both dialects refuse it alike: 422 "The x format is invalid."
 */
export const NO_NUL = '^[^\\u0000]*$';

/** Path parameter: a positive integer id. */
export const IntegerId = Type.Integer({ minimum: 1, maximum: MAX_ID, description: 'Positive integer id.' });

/**
 * A path id the document types as a positive integer while the route takes any text, so that a
 * non-integer gets the route's own 404 body (the spec's), not a 422.
 */
export const PathId = (description: string) =>
  Type.String({ description, [DOCUMENT_AS]: { type: 'integer', minimum: 1, maximum: MAX_ID, description } });

/**
 * A string enum as a named schema with `type`, so the document gives it one component that
 * generated clients share between answers and filters (title: the component's name).
 */
export function StringEnum<const T extends readonly string[]>(
  values: T,
  options: { title: string; description: string; deprecated?: boolean },
): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

export const Timestamp = Type.String({ description: 'ISO 8601 UTC timestamp, e.g. 2026-11-21T10:15:30.123Z.' });

export const SuccessMessage = Type.Object({ success: Type.Boolean(), message: Type.String() });
