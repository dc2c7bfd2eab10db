// What every answer to hostile input must look like: a 4xx in the spec's body for that endpoint
// family, or a valid success. Never a 5xx, never HTML, never a body in another shape.
import type { Answer } from './requests.js';
import type { RouteSpec } from './routes.js';

export const UNAUTHENTICATED = { message: 'Unauthenticated.' };
export const VALIDATION_MESSAGE = { tickets: 'Validation error.', general: 'The given data was invalid.' } as const;
export const TICKET_NOT_FOUND = /^No query results for model \[Ticket\] /;

export interface SentRequest {
  method: string;
  url: string;
  auth: string;
  bodyKind: string;
  /** The longest path parameter, in characters (beyond 200 the router refuses the path: 414). */
  longestParam: number;
  /** A path the router may not match: a parameter over 200 characters, a broken escape, a dot segment. */
  unroutable: boolean;
}

function keysOf(value: unknown): string[] {
  return value && typeof value === 'object' && !Array.isArray(value) ? Object.keys(value).sort() : [];
}

function isFieldErrors(errors: unknown): boolean {
  if (!errors || typeof errors !== 'object' || Array.isArray(errors)) return false;
  const entries = Object.entries(errors);
  return (
    entries.length > 0 &&
    entries.every(
      ([key, messages]) =>
        key !== '' &&
        Array.isArray(messages) &&
        messages.length > 0 &&
        messages.every((m) => typeof m === 'string' && m.length > 0),
    )
  );
}

const isMessageOnly = (body: unknown) =>
  keysOf(body).join() === 'message' && typeof (body as { message: unknown }).message === 'string';
const isFailure = (body: unknown) =>
  keysOf(body).join() === 'message,success' &&
  (body as { success: unknown }).success === false &&
  typeof (body as { message: unknown }).message === 'string';

/** The problem with a response, or undefined when it is one the spec allows for this route. */
/**
 * An event stream: the notification stream's first event (after the retry hint) is unread_count;
 * a streamed chat starts with start and ends with done or an error the model caused (never
 * server_error, which would be this service failing).
 */
function eventStreamProblem(route: RouteSpec, body: string): string | undefined {
  const events = [...body.matchAll(/event: ([^\n]+)\ndata: ([^\n]*)\n\n/g)].map((m) => ({ name: m[1], data: m[2]! }));
  // The staff stream opens with a comment; the notification stream with the unread count.
  if (route.success === 'event-stream' && route.path === '/api/admin/stream')
    return /^retry: \d+\n\n: connected\n\n/.test(body)
      ? undefined
      : `stream did not start with retry and a comment: ${body.slice(0, 200)}`;
  if (route.success === 'event-stream') {
    return body.startsWith('retry: ') && events[0]?.name === 'unread_count'
      ? undefined
      : `stream did not start with retry and unread_count: ${body.slice(0, 200)}`;
  }
  if (route.path !== '/api/assistant/chat') return `an event stream from ${route.path}`;
  if (events[0]?.name !== 'start') return `streamed chat without start: ${body.slice(0, 200)}`;
  const last = events.at(-1)!;
  if (last.name === 'done') return undefined;
  if (last.name === 'error' && !last.data.includes('server_error')) return undefined;
  return `streamed chat ended with ${last.name}: ${last.data.slice(0, 200)}`;
}

export function responseProblem(route: RouteSpec, sent: SentRequest, res: Answer): string | undefined {
  const status = res.statusCode;
  const contentType = String(res.headers['content-type'] ?? '');
  if (status >= 500) return `server error ${status}: ${res.body.slice(0, 300)}`;
  if (route.success === 'html' && contentType.startsWith('text/html'))
    return [200, 303, 403, 410].includes(status) || sent.method === 'HEAD' ? undefined : `page answered ${status}`;
  if (/html/i.test(contentType) || /^\s*</.test(res.body)) return `HTML answer (${contentType})`;
  if (sent.method === 'HEAD') return status < 500 ? undefined : `HEAD answered ${status}`;

  if (status === 304)
    return route.path.includes('geographic') || route.access === 'public' ? undefined : `304 on a non-cached route`;
  if (status === 200 && route.success === 'raw') {
    return res.headers['content-disposition'] ? undefined : 'download without Content-Disposition';
  }
  if (status === 200 && contentType.startsWith('text/event-stream')) return eventStreamProblem(route, res.body);
  if (!contentType.startsWith('application/json'))
    return `content type ${contentType || '(none)'} for status ${status}`;
  let body: unknown;
  try {
    body = JSON.parse(res.body);
  } catch {
    return `body is not JSON: ${res.body.slice(0, 200)}`;
  }

  // 400 is also the answer to an unreadable body (malformed JSON or multipart), on any route.
  // 405: a path that resolves (dot segments) to another route's path, asked with a method it does not serve.
  const allowed = new Set([
    200,
    201,
    400,
    401,
    404,
    413,
    414,
    415,
    422,
    429,
    ...(sent.unroutable ? [405] : []),
    ...(route.also ?? []),
  ]);
  if (!allowed.has(status)) return `status ${status} is not one this route answers: ${res.body.slice(0, 300)}`;

  switch (status) {
    case 200:
    case 201:
    case 202:
      if (route.success === 'bare-array') return Array.isArray(body) ? undefined : 'success body is not a bare array';
      if (route.success === 'data-array')
        return Array.isArray((body as { data?: unknown }).data) ? undefined : 'success body has no data array';
      if (route.success === 'object')
        return body !== null && typeof body === 'object' && !Array.isArray(body)
          ? undefined
          : 'success body is not an object';
      return (body as { success?: unknown }).success === true ? undefined : 'success body without success: true';
    case 400:
      // A business rule, an unreadable body or a path with a broken escape: {success:false, message}.
      return isFailure(body) ? undefined : `400 body ${res.body.slice(0, 200)}`;
    case 401:
      if (route.access === 'public' || route.access === 'optional') return 'a public route answered 401';
      return JSON.stringify(body) === JSON.stringify(UNAUTHENTICATED) ? undefined : `401 body ${res.body}`;
    case 403:
      return isFailure(body) ? undefined : `403 body ${res.body.slice(0, 200)}`;
    case 404: {
      const message = (body as { message?: unknown }).message;
      // The unknown-route answer (in English or Persian) names the method and the resolved path.
      if (isMessageOnly(body) && sent.unroutable && String(message).includes(`${sent.method} /`)) return undefined;
      for (const form of route.notFound) {
        if (form === 'ticket' && isMessageOnly(body) && TICKET_NOT_FOUND.test(String(message))) return undefined;
        if (form === 'failure' && isFailure(body)) return undefined;
        if (form === 'message' && isMessageOnly(body)) return undefined;
      }
      return `404 body ${res.body.slice(0, 200)} is not a ${route.notFound.join('/') || '(no 404 expected)'} form`;
    }
    case 405:
      return isMessageOnly(body) && res.headers.allow
        ? undefined
        : `405 body ${res.body.slice(0, 200)} (Allow ${String(res.headers.allow)})`;
    case 414:
      // A path parameter beyond the router's 200 characters.
      return sent.longestParam > 200 && isFailure(body)
        ? undefined
        : `414 body ${res.body.slice(0, 200)} (longest parameter ${sent.longestParam})`;
    case 413:
    case 415:
      return isMessageOnly(body) ? undefined : `${status} body ${res.body.slice(0, 200)}`;
    case 422: {
      const b = body as { success?: unknown; message?: unknown; errors?: unknown };
      if (b.success !== false || !isFieldErrors(b.errors)) return `422 body ${res.body.slice(0, 300)}`;
      if (route.form === 'assistant')
        return keysOf(body).join() === 'errors,success'
          ? undefined
          : `422 not in the assistant form: ${res.body.slice(0, 300)}`;
      if (keysOf(body).join() !== 'errors,message,success' || b.message !== VALIDATION_MESSAGE[route.form])
        return `422 not in the ${route.form} form: ${res.body.slice(0, 300)}`;
      return undefined;
    }
    case 409: {
      // An edit on a revision the article has moved on from: the current one comes back.
      const b = body as { success?: unknown; message?: unknown; data?: unknown };
      return b.success === false && typeof b.message === 'string' && b.data && typeof b.data === 'object'
        ? undefined
        : `409 body ${res.body.slice(0, 200)}`;
    }
    case 429:
      return isMessageOnly(body) && res.headers['retry-after']
        ? undefined
        : `429 body ${res.body} (Retry-After ${String(res.headers['retry-after'])})`;
    case 431:
      // Over a socket only: Node's parser refused the headers (the URL among them) before any route.
      return isMessageOnly(body) ? undefined : `431 body ${res.body.slice(0, 200)}`;
    default:
      return `unexpected status ${status}`;
  }
}
