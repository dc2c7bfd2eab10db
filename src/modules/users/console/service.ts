// The staff console's sign-in rules: one-time links (made for the platform, an operator or by mail),
// signing in with one, sessions listed and ended, the staff member's language, the staff list.
// A link works once and for 15 minutes; using it is one conditional update, so of two concurrent
// uses one wins. The sign-in mail is written to the outbox in the transaction that makes its link.
import type { Kysely } from 'kysely';
import type { Config } from '../../../config.js';
import type { AppDeps } from '../../../core/deps.js';
import { businessRule, msg, notFoundMessageOnly } from '../../../core/errors.js';
import { t } from '../../../core/i18n.js';
import { nowIso } from '../../../db/index.js';
import type { Database } from '../../../db/schema.js';
import { enqueueMail } from '../../../mail/outbox.js';
import { findMirroredUser, findUserByEmail, type UserRecord } from '../repository.js';
import * as repo from './repository.js';
import { csrfTokenOf, hashOf, newSecret } from './secrets.js';
import { isStaffRole } from './sessions.js';
import './messages.js';

export const LINK_LIFETIME_MS = 15 * 60_000;
/** Sign-in mails one address may get per link lifetime; further requests are answered alike but send nothing. */
export const MAILS_PER_ADDRESS = 3;
/** How long ended links and sessions stay listed in the tables before a sign-in forgets them. */
const HISTORY_MS = 86_400_000;

type Deps = Pick<AppDeps, 'db' | 'dialect' | 'config'>;

const userNotFound = (id: number) => notFoundMessageOnly(`No query results for model [User] ${id}`);
const sessionNotFound = (id: number) => notFoundMessageOnly(`No query results for model [ConsoleSession] ${id}`);

/** Where links point: PUBLIC_URL, else this process's own address. */
export function linkBase(config: Pick<Config, 'PUBLIC_URL' | 'HOST' | 'PORT'>): string {
  if (config.PUBLIC_URL) return config.PUBLIC_URL.replace(/\/+$/, '');
  const host = config.HOST === '0.0.0.0' ? '127.0.0.1' : config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST;
  return `http://${host}:${config.PORT}`;
}

export const LINK_PATH = '/api/console/links/';

export interface IssuedLink {
  url: string;
  expires_at: string;
}

async function issueLink(db: Kysely<Database>, config: Deps['config'], userId: number): Promise<IssuedLink> {
  const secret = newSecret();
  const now = Date.now();
  const expiresAt = new Date(now + LINK_LIFETIME_MS).toISOString();
  await repo.insertLink(db, {
    user_id: userId,
    token_hash: hashOf(secret)!,
    created_at: new Date(now).toISOString(),
    expires_at: expiresAt,
  });
  return { url: `${linkBase(config)}${LINK_PATH}${secret}`, expires_at: expiresAt };
}

/** Why a user cannot have a link (inactive, not staff), or null when they can. */
export function linkRefusal(user: { active: boolean; role: UserRecord['role'] }): 'inactive' | 'not_staff' | null {
  if (!user.active) return 'inactive';
  return isStaffRole(user) ? null : 'not_staff';
}

/** A link for the user with this id: 404 for no such user, 400 for an inactive or non-staff user. */
export async function createLink(deps: Deps, userId: number): Promise<IssuedLink> {
  const user = await findMirroredUser(deps.db, userId, deps.dialect);
  if (!user) throw userNotFound(userId);
  const refusal = linkRefusal(user);
  if (refusal) throw businessRule(msg(`console.${refusal}`));
  return issueLink(deps.db, deps.config, userId);
}

/** A link for an operator (console:link); the caller has checked linkRefusal. */
export function createLinkFor(deps: Deps, userId: number): Promise<IssuedLink> {
  return issueLink(deps.db, deps.config, userId);
}

/**
 * Mails a link when the address is an active staff member's and they have had fewer than
 * MAILS_PER_ADDRESS in the last 15 minutes. Says nothing either way: the caller answers alike.
 */
export async function requestSignIn(deps: Deps, email: string): Promise<void> {
  const found = await findUserByEmail(deps.db, email);
  if (!found || !isStaffRole(found)) return;
  await deps.db.transaction().execute(async (trx) => {
    const user = await findMirroredUser(trx, found.id, deps.dialect, true);
    if (!user || linkRefusal(user)) return;
    const since = new Date(Date.now() - LINK_LIFETIME_MS).toISOString();
    if ((await repo.countLinksSince(trx, user.id, since)) >= MAILS_PER_ADDRESS) return;
    const link = await issueLink(trx, deps.config, user.id);
    const name = `${user.first_name} ${user.last_name}`.trim();
    await enqueueMail(trx, {
      to: user.email,
      subject: t(user.locale, 'console.mail_subject'),
      text: t(user.locale, 'console.mail_text', { name, url: link.url }),
    });
  });
}

/** The staff member a usable link would sign in, without using it (the link's page). */
export async function linkHolder(deps: Deps, secret: string): Promise<UserRecord | undefined> {
  const hash = hashOf(secret);
  const link = hash && (await repo.findUsableLink(deps.db, hash, nowIso()));
  if (!link) return undefined;
  const user = await findMirroredUser(deps.db, link.user_id, deps.dialect);
  return user && !linkRefusal(user) ? user : undefined;
}

export interface StartedSession {
  secret: string;
  expires_at: string;
}

/** Uses the link and starts a session; undefined when the link is unknown, used, expired or its user no longer staff. */
export async function signIn(
  deps: Deps,
  secret: string,
  userAgent: string | undefined,
): Promise<StartedSession | undefined> {
  const hash = hashOf(secret);
  if (!hash) return undefined;
  const { config } = deps;
  return deps.db.transaction().execute(async (trx) => {
    const now = Date.now();
    const link = await repo.consumeLink(trx, hash, new Date(now).toISOString());
    if (!link) return undefined;
    const user = await findMirroredUser(trx, link.user_id, deps.dialect, true);
    if (!user || linkRefusal(user)) return undefined;
    await repo.forgetEnded(trx, user.id, new Date(now - HISTORY_MS).toISOString());
    const sessionSecret = newSecret();
    const expiresAt = now + config.CONSOLE_SESSION_MAX_HOURS * 3_600_000;
    const idleExpiresAt = Math.min(expiresAt, now + config.CONSOLE_SESSION_IDLE_MINUTES * 60_000);
    await repo.insertSession(trx, {
      user_id: user.id,
      token_hash: hashOf(sessionSecret)!,
      user_agent: userAgent ? userAgent.slice(0, 255) : null,
      created_at: new Date(now).toISOString(),
      last_seen_at: new Date(now).toISOString(),
      idle_expires_at: new Date(idleExpiresAt).toISOString(),
      expires_at: new Date(expiresAt).toISOString(),
    });
    return { secret: sessionSecret, expires_at: new Date(expiresAt).toISOString() };
  });
}

export { csrfTokenOf };

/** Ends one session of the user (sign-out); 1 when it was live, else 0. */
export function endSession(deps: Deps, userId: number, sessionId: number): Promise<number> {
  return repo.revokeSessions(deps.db, userId, nowIso(), sessionId);
}

/** Ends every live session of the user (deactivation, role removal); runs in the caller's transaction. */
export function endSessionsOf(db: Kysely<Database>, userId: number): Promise<number> {
  return repo.revokeSessions(db, userId, nowIso());
}

async function existingUser(deps: Deps, userId: number, db: Kysely<Database> = deps.db): Promise<void> {
  if (!(await findMirroredUser(db, userId, deps.dialect))) throw userNotFound(userId);
}

export async function sessionsOf(deps: Deps, userId: number) {
  await existingUser(deps, userId);
  return repo.liveSessions(deps.db, userId, nowIso());
}

/** Ends one session of the user: 404 for a session that is not theirs; an ended one answers 0. */
export async function revokeSessionOf(deps: Deps, userId: number, sessionId: number): Promise<number> {
  return deps.db.transaction().execute(async (trx) => {
    await existingUser(deps, userId, trx);
    if (!(await repo.sessionOfUser(trx, userId, sessionId))) throw sessionNotFound(sessionId);
    return repo.revokeSessions(trx, userId, nowIso(), sessionId);
  });
}

export async function revokeAllSessionsOf(deps: Deps, userId: number): Promise<number> {
  return deps.db.transaction().execute(async (trx) => {
    await existingUser(deps, userId, trx);
    return repo.revokeSessions(trx, userId, nowIso());
  });
}

export function rememberLocale(deps: Deps, userId: number, locale: 'en' | 'fa'): Promise<void> {
  return repo.setLocale(deps.db, userId, locale);
}

export async function staffMembers(deps: Deps) {
  const staff = await repo.listStaff(deps.db);
  return staff.map(({ id, first_name, last_name, email, role }) => ({ id, first_name, last_name, email, role }));
}
