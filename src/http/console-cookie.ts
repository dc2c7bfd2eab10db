// The staff console's session cookie and the checks that keep another site from using it. The
// cookie is HttpOnly (no script reads it), SameSite=Strict (no other site's page sends it), scoped
// to /api, and Secure when the request came over HTTPS (on the socket, or by a proxy TRUST_PROXY
// believes). A state-changing request that signs in with it must also carry the session's
// anti-forgery token in X-CSRF-Token and an Origin equal to the service's own.
import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.js';

export const SESSION_COOKIE = 'console_session';
const COOKIE_PATH = '/api';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const MAX_COOKIE_HEADER = 8192;

/** The session cookie's value from the Cookie header, or undefined. */
export function sessionCookieOf(req: FastifyRequest): string | undefined {
  const header = req.headers.cookie;
  if (!header || header.length > MAX_COOKIE_HEADER) return undefined;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === SESSION_COOKIE) return part.slice(at + 1).trim();
  }
  return undefined;
}

function attributes(req: FastifyRequest, maxAgeSeconds: number): string {
  const secure = req.protocol === 'https' ? '; Secure' : '';
  return `Path=${COOKIE_PATH}; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Strict${secure}`;
}

/** Set-Cookie for a new session: it lasts until the session's absolute end. */
export function sessionCookie(req: FastifyRequest, value: string, expiresAt: string): string {
  const seconds = Math.max(0, Math.floor((Date.parse(expiresAt) - Date.now()) / 1000));
  return `${SESSION_COOKIE}=${value}; ${attributes(req, seconds)}`;
}

/** Set-Cookie that removes the session cookie. */
export function clearedSessionCookie(req: FastifyRequest): string {
  return `${SESSION_COOKIE}=; ${attributes(req, 0)}`;
}

/** The service's origin: PUBLIC_URL's when set, else the origin the request was addressed to. */
export function expectedOrigin(config: Pick<Config, 'PUBLIC_URL'>, req: FastifyRequest): string {
  if (config.PUBLIC_URL) return new URL(config.PUBLIC_URL).origin;
  return `${req.protocol}://${req.host}`;
}

/** Whether the request's Origin header names the service itself (a missing or "null" Origin does not). */
export function fromOwnOrigin(config: Pick<Config, 'PUBLIC_URL'>, req: FastifyRequest): boolean {
  const origin = req.headers.origin;
  return typeof origin === 'string' && origin === expectedOrigin(config, req);
}

export function changesState(req: FastifyRequest): boolean {
  return !SAFE_METHODS.has(req.method);
}

/** Compares the X-CSRF-Token header with the session's token in constant time. */
export function carriesToken(req: FastifyRequest, expected: string): boolean {
  const given = req.headers['x-csrf-token'];
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
