// The typed client of the service's JSON API (openapi-fetch over the types generated from the
// service's own OpenAPI document), and the credential every request carries: the session cookie
// with its anti-forgery header, or in development a bearer token kept for the tab.
import createClient from 'openapi-fetch';
import type { paths } from '../../generated/api';
import type { ConsoleSession, PendingPaths, SessionUser } from './pending';

export type Paths = paths & Omit<PendingPaths, keyof paths>;

export type Credential =
  | { kind: 'session'; csrf: string; user: SessionUser }
  | { kind: 'bearer'; token: string; user: SessionUser };

/** The development credential: an admin's bearer token set for this tab (see docs/decisions.md). */
const BEARER_KEY = 'console.bearer';

let credential: Credential | null = null;
let language: 'en' | 'fa' = 'en';
const signedOutListeners = new Set<() => void>();

export const api = createClient<Paths>({ baseUrl: location.origin });

function authorize(headers: Headers): void {
  headers.set('Accept-Language', language);
  if (credential?.kind === 'session') headers.set('X-CSRF-Token', credential.csrf);
  else if (credential?.kind === 'bearer') headers.set('Authorization', `Bearer ${credential.token}`);
}

api.use({
  onRequest({ request }) {
    authorize(request.headers);
    return request;
  },
  onResponse({ response }) {
    if (response.status === 401 && credential) {
      credential = null;
      for (const listener of signedOutListeners) listener();
    }
    return response;
  },
});

export function setLanguage(locale: 'en' | 'fa'): void {
  language = locale;
}

export function onSignedOut(listener: () => void): () => void {
  signedOutListeners.add(listener);
  return () => signedOutListeners.delete(listener);
}

export function currentCredential(): Credential | null {
  return credential;
}

/** An answer that is not a success, with the service's message and field errors. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors: Record<string, string[]> = {},
    readonly data: unknown = undefined,
  ) {
    super(message);
  }
}

/** The data of a typed call, or an ApiError with the service's message. */
export async function call<T>(pending: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await pending;
  if (response.ok && data !== undefined) return data;
  const body = (error ?? {}) as { message?: unknown; errors?: unknown; data?: unknown };
  throw new ApiError(
    response.status,
    typeof body.message === 'string' ? body.message : response.statusText || `HTTP ${response.status}`,
    (body.errors as Record<string, string[]>) ?? {},
    body.data,
  );
}

/** A raw request with the credential (files and CSV, which are not JSON). */
export async function authorizedFetch(url: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  authorize(headers);
  const response = await fetch(url, { ...init, headers, credentials: 'same-origin' });
  if (!response.ok) {
    const body = (await response.json().catch(() => ({}))) as { message?: string };
    throw new ApiError(response.status, body.message ?? `HTTP ${response.status}`);
  }
  return response;
}

/**
 * Who is signed in: the console session (cookie) when there is one, else the tab's development
 * bearer token. Null when neither works.
 */
export async function resolveCredential(): Promise<Credential | null> {
  credential = null;
  const session = await api.GET('/api/console/session');
  if (session.response.ok && session.data) {
    const { user, csrf_token } = (session.data as { data: ConsoleSession }).data;
    credential = { kind: 'session', csrf: csrf_token, user };
    return credential;
  }
  const stored = sessionStorage.getItem(BEARER_KEY);
  if (stored) {
    try {
      const parsed = JSON.parse(stored) as { token: string; user: SessionUser };
      // Not checked here: the page's first staff call answers 401 for a bad token, which signs out.
      credential = { kind: 'bearer', token: parsed.token, user: parsed.user };
      return credential;
    } catch {
      sessionStorage.removeItem(BEARER_KEY);
    }
  }
  return null;
}

export async function signOut(): Promise<void> {
  if (credential?.kind === 'session') await api.DELETE('/api/console/session');
  sessionStorage.removeItem(BEARER_KEY);
  credential = null;
}
