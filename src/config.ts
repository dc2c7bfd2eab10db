// The only module that reads process.env. Every setting is declared once below: its parser gives
// both the type and the validation, and a bad value stops the process with one line naming the
// variable and the form it expects.
import path from 'node:path';
import { DEFAULT_BUSINESS_HOURS, ScheduleError, parseSchedule } from './core/working-week.js';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Parser<T> = (raw: string | undefined, name: string) => T;

function fail(name: string, expected: string, raw: string): never {
  throw new ConfigError(`${name} must be ${expected} (got "${raw.slice(0, 80)}")`);
}

const text =
  (fallback: string): Parser<string> =>
  (raw) =>
    raw === undefined || raw === '' ? fallback : raw;

const optionalText: Parser<string | undefined> = (raw) => (raw === undefined || raw === '' ? undefined : raw);

const integer =
  (fallback: number, min: number, max: number): Parser<number> =>
  (raw, name) => {
    if (raw === undefined || raw === '') return fallback;
    if (!/^\d+$/.test(raw)) fail(name, `a whole number from ${min} to ${max}`, raw);
    const value = Number(raw);
    if (value < min || value > max) fail(name, `a whole number from ${min} to ${max}`, raw);
    return value;
  };

const oneOf =
  <T extends string>(fallback: T, values: readonly T[]): Parser<T> =>
  (raw, name) => {
    if (raw === undefined || raw === '') return fallback;
    if (!(values as readonly string[]).includes(raw)) fail(name, `one of ${values.join(', ')}`, raw);
    return raw as T;
  };

const url =
  (protocols: string[], expected: string): Parser<string | undefined> =>
  (raw, name) => {
    if (raw === undefined || raw === '') return undefined;
    let parsed: URL;
    try {
      parsed = new URL(raw);
    } catch {
      fail(name, expected, raw);
    }
    if (!protocols.includes(parsed.protocol)) fail(name, expected, raw);
    return raw;
  };

const httpUrlWithDefault =
  (fallback: string): Parser<string> =>
  (raw, name) =>
    (url(['http:', 'https:'], 'an http:// or https:// URL')(raw, name) ?? fallback).replace(/\/+$/, '');

/** PUBLIC_URL: an origin (scheme, host, port; no path), a trailing slash dropped. */
const publicOrigin: Parser<string | undefined> = (raw, name) => {
  const value = url(['http:', 'https:'], 'an http:// or https:// origin such as https://api.example.com')(raw, name);
  if (value === undefined) return undefined;
  const origin = new URL(value).origin;
  if (origin !== value.replace(/\/+$/, ''))
    fail(name, 'an origin without a path, such as https://api.example.com', value);
  return origin;
};

const host: Parser<string> = (raw, name) => {
  if (raw === undefined || raw === '') return '127.0.0.1';
  if (!/^[A-Za-z0-9.:\-[\]]+$/.test(raw)) fail(name, 'a host name or IP address such as 127.0.0.1 or 0.0.0.0', raw);
  return raw;
};

/** TRUST_PROXY: false (default), true, a hop count, or a comma-separated list of addresses/CIDRs. */
const trustProxy: Parser<boolean | number | string[]> = (raw, name) => {
  if (raw === undefined || raw === '' || raw === 'false' || raw === '0') return false;
  if (raw === 'true') return true;
  if (/^\d+$/.test(raw)) return Number(raw);
  const list = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (list.length === 0 || list.some((s) => !/^[0-9A-Fa-f.:/]+$/.test(s))) {
    fail(name, 'true, false, a hop count, or a comma-separated list of IP addresses or CIDR ranges', raw);
  }
  return list;
};

/** CORS_ORIGINS: empty (no cross-origin access), "*", or a comma-separated list of origins. */
const corsOrigins: Parser<'*' | string[]> = (raw, name) => {
  if (raw === undefined || raw.trim() === '') return [];
  if (raw.trim() === '*') return '*';
  const list = raw
    .split(',')
    .map((s) => s.trim().replace(/\/+$/, ''))
    .filter(Boolean);
  for (const origin of list) {
    try {
      const parsed = new URL(origin);
      if (!['http:', 'https:'].includes(parsed.protocol) || parsed.origin !== origin) throw new Error();
    } catch {
      fail(name, '"*" or a comma-separated list of origins such as https://app.example.com', origin);
    }
  }
  return list;
};

/** SLA_TIMEZONE: an IANA zone name that this Node's ICU knows. */
const timeZone: Parser<string> = (raw, name) => {
  if (raw === undefined || raw === '') return 'Asia/Tehran';
  try {
    new Intl.DateTimeFormat('en', { timeZone: raw });
  } catch {
    fail(name, 'an IANA time zone name such as Asia/Tehran', raw);
  }
  return raw;
};

/** SLA_BUSINESS_HOURS: the working week (grammar in core/working-week.ts). */
const businessHours: Parser<string> = (raw, name) => {
  const value = raw === undefined || raw.trim() === '' ? DEFAULT_BUSINESS_HOURS : raw;
  try {
    parseSchedule(value);
  } catch (error) {
    if (!(error instanceof ScheduleError)) throw error;
    fail(name, `a working week such as "sat-tue 08:00-12:00,13:00-17:00; thu 08:00-13:00" (${error.message})`, value);
  }
  return value;
};

/** Where an s3:// STORAGE_URL points: the bucket, and the key prefix inside it ('' for none). */
export interface S3Location {
  bucket: string;
  prefix: string;
}

// S3's bucket naming rules; prefix segments are kept to characters every S3-protocol server
// stores verbatim in a key (no '.' or '..' segments, which some servers normalise away).
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const PREFIX_SEGMENT = /^(?!\.{1,2}$)[A-Za-z0-9._-]{1,200}$/;

/** s3://bucket or s3://bucket/some/prefix (a trailing slash is allowed); undefined for anything else. */
export function s3Location(url: string): S3Location | undefined {
  const match = /^s3:\/\/([^/]+)(\/.*)?$/.exec(url);
  if (!match || !BUCKET.test(match[1]!)) return undefined;
  const segments = (match[2] ?? '').replace(/^\/|\/$/g, '');
  if (segments === '') return { bucket: match[1]!, prefix: '' };
  const parts = segments.split('/');
  return parts.every((p) => PREFIX_SEGMENT.test(p)) ? { bucket: match[1]!, prefix: parts.join('/') } : undefined;
}

/** STORAGE_URL: unset = attachments on the local disk (DATA_DIR/attachments); else an s3:// bucket. */
const storageUrl: Parser<string | undefined> = (raw, name) => {
  if (raw === undefined || raw === '') return undefined;
  if (!s3Location(raw))
    fail(
      name,
      's3://bucket or s3://bucket/prefix (bucket: 3-63 lowercase letters, digits, dots, hyphens), or unset for the local disk',
      raw,
    );
  return raw;
};

const region: Parser<string> = (raw, name) => {
  if (raw === undefined || raw === '') return 'us-east-1';
  if (!/^[a-z0-9][a-z0-9-]{0,40}$/.test(raw)) fail(name, 'a region name such as us-east-1', raw);
  return raw;
};

/** MAIL_INBOX_URL: imaps://user:pass@host[:port]/MAILBOX; plain imap:// only to a loopback address. */
const inboxUrl: Parser<string | undefined> = (raw, name) => {
  const value = url(['imaps:', 'imap:'], 'an imaps://user:password@host/INBOX URL with a user name')(raw, name);
  const parsed = value === undefined ? undefined : new URL(value);
  if (parsed && !parsed.username) fail(name, 'an imaps://user:password@host/INBOX URL with a user name', value!);
  if (parsed?.protocol === 'imap:' && !['127.0.0.1', 'localhost', '[::1]'].includes(parsed.hostname))
    fail(name, 'an imaps:// URL (plain imap:// is accepted for a loopback host only)', value!);
  return value;
};

/** MAIL_REPLY_KEY (at least 16 characters) and MAIL_REPLY_DOMAIN (a domain name). */
const replyKey: Parser<string | undefined> = (raw, name) => {
  if (raw !== undefined && raw !== '' && raw.length < 16) fail(name, 'a secret of at least 16 characters', '(hidden)');
  return raw || undefined;
};
const domainName: Parser<string | undefined> = (raw, name) => {
  if (raw && !/^[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)+$/.test(raw))
    fail(name, 'a domain name such as support.example.com', raw);
  return raw ? raw.toLowerCase() : undefined;
};

const settings = {
  PORT: integer(3000, 0, 65535),
  HOST: host,
  DATA_DIR: text('./data'),
  DATABASE_URL: url(['postgres:', 'postgresql:'], 'a postgres:// URL'),
  DATABASE_POOL_SIZE: integer(10, 1, 200),
  /** PostgreSQL statement_timeout of every connection; a statement running longer is cancelled (503). 0 = none. */
  DATABASE_STATEMENT_TIMEOUT_MS: integer(5_000, 0, 600_000),
  /** SQLite: how often a worker thread checkpoints the WAL (db/checkpointer.ts); 0 = in the committing request, as SQLite does by default. */
  SQLITE_CHECKPOINT_MS: integer(100, 0, 60_000),
  /** Unset: attachments under DATA_DIR/attachments; s3://bucket[/prefix]: an S3-protocol bucket (modules/tickets/storage/s3.ts). */
  STORAGE_URL: storageUrl,
  /** An S3-protocol server other than AWS (MinIO, Ceph RGW, R2…); set: path-style addressing. */
  S3_ENDPOINT: url(
    ['http:', 'https:'],
    'an http:// or https:// URL of an S3-protocol server, such as http://127.0.0.1:9000',
  ),
  S3_REGION: region,
  REDIS_URL: url(['redis:', 'rediss:'], 'a redis:// or rediss:// URL'),
  /** Prefix of every Redis key, so several deployments (or test runs) can share one Redis. */
  REDIS_KEY_PREFIX: text('platform-api:'),
  APP_URL: httpUrlWithDefault('http://localhost:5173'),
  /** This service's origin as browsers reach it (https://api.example.com): console sign-in links are built on it, and a
   * console request's Origin must equal it. Unset: http://HOST:PORT for links, the request's own origin for the check. */
  PUBLIC_URL: publicOrigin,
  /** A console session ends after this many minutes without a request. */
  CONSOLE_SESSION_IDLE_MINUTES: integer(60, 5, 1440),
  /** A console session ends this many hours after sign-in, however busy. */
  CONSOLE_SESSION_MAX_HOURS: integer(12, 1, 720),
  LOG_LEVEL: oneOf('info', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const),
  /** json (production) or pretty: readable lines through pino-pretty, a dev dependency (npm run dev). */
  LOG_FORMAT: oneOf('json', ['json', 'pretty'] as const),
  TRUST_PROXY: trustProxy,
  CORS_ORIGINS: corsOrigins,
  RATE_LIMIT_PER_MINUTE: integer(600, 0, 1_000_000),
  BODY_LIMIT_BYTES: integer(1_048_576, 1024, 100 * 1_048_576),
  /** Memory for reusing GET /api/notifications answers per user (see http/answer-cache.ts); 0 turns it off. */
  NOTIFICATIONS_CACHE_MB: integer(16, 0, 4096),
  /** Memory for reusing GET /api/tickets (per user and query) and /stats answers (see http/answer-cache.ts); 0 turns it off. */
  TICKETS_CACHE_MB: integer(16, 0, 4096),
  /** Open GET /api/notifications/stream connections one user may hold on one instance; the next gets 429. */
  NOTIFICATION_STREAMS_PER_USER: integer(5, 1, 1000),
  /** Seconds between the comment lines that keep an idle notification stream open through proxies. */
  NOTIFICATION_STREAM_HEARTBEAT_SECONDS: integer(20, 1, 25),
  /** SQLite only: how often an instance with open streams checks whether their users' notifications changed. */
  NOTIFICATION_STREAM_POLL_MS: integer(500, 50, 1000),
  SMTP_URL: url(['smtp:', 'smtps:'], 'an smtp:// or smtps:// URL'),
  MAIL_FROM: text('Platform Support <support@platform.local>'),
  /** Domain of the reply addresses (support+<tracking>.<signature>@domain); unset: MAIL_FROM's domain. */
  MAIL_REPLY_DOMAIN: domainName,
  /** Local part before the "+" of the reply addresses. */
  MAIL_REPLY_MAILBOX: text('support'),
  /** Key of the reply addresses' signature (HMAC-SHA256); unset: no reply address, replies matched by headers and subject. */
  MAIL_REPLY_KEY: replyKey,
  /** The mailbox fetched over IMAP (IDLE) for replies and new tickets; unset: no fetcher (the webhook still works). */
  MAIL_INBOX_URL: inboxUrl,
  /** How long the fetching instance's lease lasts unrenewed: another instance takes over this long after it died. */
  MAIL_INBOX_LEASE_SECONDS: integer(30, 2, 3600),
  /** Messages one sender may have applied per hour; more wait (deferred, not lost) until the hour allows. */
  MAIL_INBOUND_PER_SENDER_PER_HOUR: integer(30, 1, 100_000),
  /** authserv-id of the receiving server whose Authentication-Results (dmarc/dkim/spf pass) may vouch for a From. */
  MAIL_TRUSTED_AUTHSERV_ID: domainName,
  LLM_BASE_URL: url(
    ['http:', 'https:'],
    'an http:// or https:// URL of an OpenAI-compatible API, such as http://127.0.0.1:11434/v1',
  ),
  LLM_API_KEY: optionalText,
  LLM_MODEL: optionalText,
  LLM_TIMEOUT_MS: integer(30_000, 100, 600_000),
  LLM_MAX_TOKENS: integer(800, 16, 32_000),
  ASSISTANT_WELCOME_MESSAGE: optionalText,
  ASSISTANT_WELCOME_FILE: optionalText,
  SHUTDOWN_TIMEOUT_MS: integer(10_000, 100, 120_000),
  /** Bearer token GET /metrics answers to; unset: /metrics answers 404. */
  METRICS_TOKEN: optionalText,
  /** SLA deadlines in wall-clock hours (calendar) or working hours (business); see modules/tickets/calendar/. */
  SLA_CLOCK: oneOf('calendar', ['calendar', 'business'] as const),
  SLA_TIMEZONE: timeZone,
  SLA_BUSINESS_HOURS: businessHours,
  SLA_HOLIDAYS: oneOf('iran', ['iran', 'none'] as const),
} satisfies Record<string, Parser<unknown>>;

type Settings = typeof settings;
export type Config = { [K in keyof Settings]: ReturnType<Settings[K]> };

/** Parses the given environment (process.env by default); throws ConfigError on the first bad value. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const config = {} as Record<string, unknown>;
  for (const [name, parse] of Object.entries(settings)) {
    config[name] = (parse as Parser<unknown>)(env[name], name);
  }
  const result = config as Config;
  if (result.S3_ENDPOINT && !result.STORAGE_URL) {
    throw new ConfigError(
      'S3_ENDPOINT is set but STORAGE_URL is not: set STORAGE_URL=s3://bucket[/prefix], or unset S3_ENDPOINT to keep attachments on the disk',
    );
  }
  result.DATA_DIR = path.resolve(result.DATA_DIR);
  return result;
}

/** A config for tests and tools: defaults, then the overrides, without reading process.env. */
export function configWith(overrides: Partial<Config> = {}): Config {
  return { ...loadConfig({}), ...overrides };
}
