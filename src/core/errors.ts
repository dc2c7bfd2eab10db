// The one set of typed errors. Services throw these; http/error-handler.ts turns every one into
// the exact body the spec gives for its status code. A message is either fixed text (the spec's
// English-only bodies) or a catalogue key with parameters (core/i18n.ts), which the edge renders
// in the request's language: services never need to know the caller's locale.
import { t, type Locale } from './i18n.js';

export type ErrorBody = Record<string, unknown> & { message: string };
/** The three 422 shapes of the spec: assistant endpoints, ticket endpoints, everything else. */
export type ValidationForm = 'assistant' | 'tickets' | 'general';
/** Field errors as the client reads them: readable sentences, keyed by field. */
export type FieldErrors = Record<string, string[]>;

/** A message of the catalogues: its key and the values of its :placeholders. */
export interface MessageRef {
  key: string;
  params?: Record<string, string | number>;
}

/** Fixed text, or a catalogue message rendered in the request's language by the edge. */
export type MessageText = string | MessageRef;

/** Field errors as services raise them: fixed text or catalogue messages, rendered by the edge. */
export type FieldMessages = Record<string, MessageText[]>;

/** A catalogue message, e.g. msg('tickets.not_found', { id }). */
export const msg = (key: string, params?: Record<string, string | number>): MessageRef => ({ key, params });

export class HttpError extends Error {
  override name = 'HttpError';
  constructor(
    readonly statusCode: number,
    readonly body: ErrorBody,
    readonly headers: Record<string, string> = {},
    /** When set, body.message is this message in the request's language (English until rendered). */
    readonly messageRef?: MessageRef,
  ) {
    super(body.message);
  }
}

/** An HttpError whose body is `shape` plus the message (rendered in English here, in the request's language at the edge). */
function withMessage(status: number, shape: Record<string, unknown>, text: MessageText): HttpError {
  if (typeof text === 'string') return new HttpError(status, { ...shape, message: text });
  return new HttpError(status, { ...shape, message: t('en', text.key, text.params) }, {}, text);
}

/** 422 whose body depends on the endpoint family; built by the error handler, which knows the form. */
export class ValidationError extends Error {
  override name = 'ValidationError';
  readonly statusCode = 422;
  constructor(
    readonly errors: FieldMessages,
    /** Overrides the form configured on the route. */
    readonly form?: ValidationForm,
  ) {
    super('The given data was invalid.');
  }
}

/** 422 for fields a service finds wrong (a slug already taken), each with a catalogue message. */
export const invalidFields = (refs: Record<string, MessageRef>) =>
  new ValidationError(Object.fromEntries(Object.entries(refs).map(([field, ref]) => [field, [ref]])));

/** 409 {success:false, message, data}: the request was made against a state that has changed since (data: the current one). */
export const conflict = (message: MessageText, data: unknown) => withMessage(409, { success: false, data }, message);

export const VALIDATION_MESSAGES: Record<Exclude<ValidationForm, 'assistant'>, string> = {
  tickets: 'Validation error.',
  general: 'The given data was invalid.',
};

export function validationBody(form: ValidationForm, errors: FieldErrors): Record<string, unknown> {
  if (form === 'assistant') return { success: false, errors };
  return { success: false, message: VALIDATION_MESSAGES[form], errors };
}

export const UNAUTHENTICATED_MESSAGE = 'Unauthenticated.';

/** 401 with exactly {"message":"Unauthenticated."}. */
export const unauthenticated = () => new HttpError(401, { message: UNAUTHENTICATED_MESSAGE });

/** 400: a business rule forbids the action (closing a closed ticket). */
export const businessRule = (message: MessageText) => withMessage(400, { success: false }, message);

/** 403 {success:false, message}. */
export const forbidden = (message: MessageText) => withMessage(403, { success: false }, message);

/** 404 {success:false, message}: conversations and attachment files. */
export const notFound = (message: MessageText) => withMessage(404, { success: false }, message);

/** 404 {message}: notifications, unknown routes, and tickets (with the model message). */
export const notFoundMessageOnly = (message: MessageText) => withMessage(404, {}, message);

/** 429 {message} with Retry-After in whole seconds. */
export const tooManyRequests = (retryAfterSeconds: number) =>
  new HttpError(
    429,
    { message: 'Too Many Attempts.' },
    { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) },
  );

/** 503 {message}: a dependency (the database) does not answer. */
export const serviceUnavailable = () =>
  new HttpError(503, { message: 'Service temporarily unavailable. Please try again shortly.' }, { 'retry-after': '5' });

/** Field errors for one field, in the shape ValidationError takes. */
export const fieldError = (field: string, message: MessageText): FieldMessages => ({ [field]: [message] });

/** A message in the given language: fixed text as it is, a catalogue message rendered. */
export const renderMessage = (locale: Locale, text: MessageText): string =>
  typeof text === 'string' ? text : t(locale, text.key, text.params);

/** The body of an HttpError with its message in the given language. */
export function localisedBody(error: HttpError, locale: Locale): ErrorBody {
  const ref = error.messageRef;
  return ref ? { ...error.body, message: t(locale, ref.key, ref.params) } : error.body;
}

/** Field errors in the given language (English for the command line). */
export function renderFieldErrors(errors: FieldMessages, locale: Locale): FieldErrors {
  // Built as own properties: an assignment to a field named __proto__ would set the prototype
  // instead, and the field (json-body.ts refuses it by name) would vanish from the answer.
  return Object.fromEntries(
    Object.entries(errors).map(([field, messages]) => [field, messages.map((m) => renderMessage(locale, m))]),
  );
}
