// Users mirrored from the platform by its ids, and their tokens, for the admin integration API.
// Each write runs in one transaction. PUT is idempotent (the same body again changes nothing and
// answers 200), and so are both revocations (revoking a revoked token answers 200 with count 0),
// so the platform may retry any of them; minting a token is not: a retried mint makes a second
// token, which the platform can revoke.
import type { Kysely } from 'kysely';
import { nowIso, type Dialect } from '../../db/index.js';
import type { Database } from '../../db/schema.js';
import { msg, notFoundMessageOnly, ValidationError, type FieldMessages } from '../../core/errors.js';
import { fieldMessage } from '../../core/fields.js';
import {
  advanceUserIdSequence,
  emailTakenByOther,
  findMirroredUser,
  insertMirroredUserIfAbsent,
  isUniqueViolation,
  normaliseEmail,
  updateMirroredUser,
  type MirroredFields,
  type MirroredUser,
  type Role,
} from './repository.js';
import { endSessionsOf } from './console/service.js';
import {
  createToken,
  liveTokens,
  revokeAllTokens,
  revokeTokenOfUser,
  type CreatedToken,
  type TokenSummary,
} from './tokens.js';

import './messages.js';

export interface UserReport {
  email: string;
  first_name: string;
  last_name: string;
  is_admin?: boolean;
  role?: Role;
  locale?: 'en' | 'fa';
  active?: boolean;
}

export interface SavedUser {
  created: boolean;
  user: MirroredUser;
  tokens_revoked: number;
}

const userNotFound = (id: number) => notFoundMessageOnly(`No query results for model [User] ${id}`);
const tokenNotFound = (id: number) => notFoundMessageOnly(`No query results for model [PersonalAccessToken] ${id}`);

/**
 * The role a report asks for: its role; else from is_admin (true: admin; false: an admin becomes
 * a member, support stays support); else the stored one (a new user: member).
 */
function wantedRole(report: UserReport, existing: Role | undefined): Role {
  if (report.role !== undefined) return report.role;
  if (report.is_admin === true) return 'admin';
  if (report.is_admin === false) return existing === 'support' ? 'support' : 'member';
  return existing ?? 'member';
}

/** The fields whose value differs from the stored user's. */
function changedFields(existing: MirroredUser, wanted: MirroredFields): Partial<MirroredFields> {
  return Object.fromEntries(
    Object.entries(wanted).filter(([key, value]) => existing[key as keyof MirroredFields] !== value),
  ) as Partial<MirroredFields>;
}

/** What the directory functions take. */
type DirectoryDeps = { db: Kysely<Database>; dialect: Dialect };

/**
 * Creates the user under the platform's id, or brings it in line with the report. Fields the
 * report leaves out keep their stored value (defaults for a new user). A deactivation revokes
 * every token of the user in the same transaction; the token lookup also refuses any token of
 * an inactive user, so nothing signs in until the platform reactivates and mints again.
 */
export async function saveUser(deps: DirectoryDeps, id: number, report: UserReport): Promise<SavedUser> {
  const errors = reportErrors(report);
  if (errors) throw new ValidationError(errors);
  try {
    return await saveOnce(deps, id, report);
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }
  // A unique violation: on PostgreSQL a concurrent insert of the same id can fail on the email
  // index rather than being absorbed by ON CONFLICT (id), which covers only its own index. Once
  // more, now that the row is there: an update, or a real clash of addresses (422).
  try {
    return await saveOnce(deps, id, report);
  } catch (error) {
    // Another request took the address between the check and the write.
    if (isUniqueViolation(error)) throw new ValidationError({ email: [msg('users.email_taken')] });
    throw error;
  }
}

async function saveOnce({ db, dialect }: DirectoryDeps, id: number, report: UserReport): Promise<SavedUser> {
  return db.transaction().execute(async (trx) => {
    const email = normaliseEmail(report.email);
    if (await emailTakenByOther(trx, email, id)) throw new ValidationError({ email: [msg('users.email_taken')] });
    const now = nowIso();
    const freshRole = wantedRole(report, undefined);
    const fresh: MirroredFields = {
      email,
      first_name: report.first_name.trim(),
      last_name: report.last_name.trim(),
      is_admin: freshRole === 'admin',
      role: freshRole,
      locale: report.locale ?? 'en',
      active: report.active ?? true,
    };
    let existing = await findMirroredUser(trx, id, dialect, true);
    // Absent: inserted, unless a concurrent request got there first (then updated like a retry).
    const created = !existing && (await insertMirroredUserIfAbsent(trx, id, fresh, now));
    if (created) await advanceUserIdSequence(trx, dialect);
    existing ??= (await findMirroredUser(trx, id, dialect, true))!;
    let user = existing;
    if (!created) {
      const role = wantedRole(report, existing.role);
      const wanted: MirroredFields = {
        ...fresh,
        is_admin: role === 'admin',
        role,
        locale: report.locale ?? existing.locale,
        active: report.active ?? existing.active,
      };
      const changes = changedFields(existing, wanted);
      if (Object.keys(changes).length > 0) user = await updateMirroredUser(trx, id, changes, now);
    }
    const tokensRevoked = user.active ? 0 : await revokeAllTokens(trx, id);
    // Console sessions end with the account or with the staff role, in the same transaction.
    if (!user.active || user.role === 'member') await endSessionsOf(trx, id);
    return { created, user, tokens_revoked: tokensRevoked };
  });
}

/** A new token for the user; the plaintext is in the answer only. */
export async function mintToken(
  { db, dialect }: DirectoryDeps,
  userId: number,
  options: { name?: string; expiresInDays?: number | null },
): Promise<CreatedToken & { name: string }> {
  const name = options.name?.trim() || 'default';
  return db.transaction().execute(async (trx) => {
    const user = await findMirroredUser(trx, userId, dialect, true);
    if (!user) throw userNotFound(userId);
    if (!user.active) throw new ValidationError({ user: [msg('users.inactive')] });
    const token = await createToken(trx, userId, { name, expiresInDays: options.expiresInDays ?? undefined });
    return { ...token, name };
  });
}

export async function listTokens(deps: DirectoryDeps, userId: number): Promise<TokenSummary[]> {
  await existingUser(deps, userId);
  return liveTokens(deps.db, userId);
}

/** Revokes one token of the user: 404 for a token that is not theirs; a revoked one answers count 0. */
export async function revokeUserToken(deps: DirectoryDeps, userId: number, tokenId: number): Promise<number> {
  return deps.db.transaction().execute(async (trx) => {
    await existingUser(deps, userId, trx);
    const result = await revokeTokenOfUser(trx, userId, tokenId);
    if (!result) throw tokenNotFound(tokenId);
    return result.revoked ? 1 : 0;
  });
}

/** Revokes every token of the user; the count of tokens revoked now. */
export async function revokeUserTokens(deps: DirectoryDeps, userId: number): Promise<number> {
  return deps.db.transaction().execute(async (trx) => {
    await existingUser(deps, userId, trx);
    return revokeAllTokens(trx, userId);
  });
}

async function existingUser(
  deps: DirectoryDeps,
  userId: number,
  db: Kysely<Database> = deps.db,
): Promise<MirroredUser> {
  const user = await findMirroredUser(db, userId, deps.dialect);
  if (!user) throw userNotFound(userId);
  return user;
}

/** Names that are blank once trimmed, which the schema's length rule lets through. */
function reportErrors(report: UserReport): FieldMessages | null {
  const errors: FieldMessages = {};
  for (const field of ['first_name', 'last_name'] as const) {
    if (report[field].trim() === '') errors[field] = [fieldMessage('required', field)];
  }
  if (report.role !== undefined && report.is_admin !== undefined && report.is_admin !== (report.role === 'admin'))
    errors.role = [msg('users.role_conflict')];
  return Object.keys(errors).length > 0 ? errors : null;
}
