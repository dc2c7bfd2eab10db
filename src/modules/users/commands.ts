import type { Kysely } from 'kysely';
import {
  CommandFailed,
  UsageError,
  optionalPositiveInteger,
  requireString,
  type CliCommand,
} from '../../cli/command.js';
import { migrateToLatest } from '../../db/migrate.js';
import type { Database } from '../../db/schema.js';
import {
  advanceUserIdSequence,
  findMirroredUser,
  findUserByEmail,
  insertUser,
  ROLES,
  setRole,
  type Role,
  type UserRecord,
} from './repository.js';
import { endSessionsOf } from './console/service.js';
import { listCommands } from './list-commands.js';
import { createToken, revokeAllTokens, revokeToken } from './tokens.js';
import { MAX_ID } from '../../core/ids.js';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function roleOption(value: string | boolean | undefined): Role | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !(ROLES as readonly string[]).includes(value))
    throw new UsageError(`--role must be one of ${ROLES.join(', ')}`);
  return value as Role;
}

/** What the user commands print of a user. */
function userJson(user: Pick<UserRecord, 'id' | 'email' | 'first_name' | 'last_name' | 'role'>): string {
  const { id, email, first_name, last_name, role } = user;
  return JSON.stringify({ id, email, first_name, last_name, is_admin: role === 'admin', role });
}

/** Gives the user the role; taking staff rights away ends their console sessions in the same transaction. */
async function changeRole(db: Kysely<Database>, user: UserRecord, role: Role): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await setRole(trx, user.id, role);
    if (role === 'member') await endSessionsOf(trx, user.id);
  });
}

/** The user the command names by --email; a command fails when there is none. */
async function userWithEmail(db: Kysely<Database>, email: string): Promise<UserRecord> {
  const user = await findUserByEmail(db, email);
  if (!user) throw new CommandFailed(`no user with email ${email.toLowerCase()}`);
  return user;
}

export const commands: CliCommand[] = [
  {
    name: 'user:create',
    summary: 'Create a user and print it as JSON.',
    usage: '--email E --first-name F --last-name L [--role member|support|admin | --admin] [--locale en|fa] [--id N]',
    options: {
      id: {
        type: 'string',
        description: "the platform's id for the user (default: the next free id); see PUT /api/admin/users/{id}",
      },
      email: { type: 'string', description: 'email address (unique, case-insensitive)' },
      'first-name': { type: 'string', description: 'first name' },
      'last-name': { type: 'string', description: 'last name' },
      admin: { type: 'boolean', description: 'make the user an administrator (the same as --role admin)' },
      role: { type: 'string', description: 'member (default), support (works tickets in the console) or admin' },
      locale: { type: 'string', description: 'language of notifications and mail: en (default) or fa' },
    },
    async run(values, { db, dialect, out }) {
      const email = requireString(values, 'email');
      if (!EMAIL.test(email) || email.length > 255)
        throw new UsageError(`--email must be an email address such as ada@example.com`);
      const firstName = requireString(values, 'first-name');
      const lastName = requireString(values, 'last-name');
      const locale = values.locale ?? 'en';
      if (locale !== 'en' && locale !== 'fa') throw new UsageError('--locale must be en or fa');
      if (firstName.length > 100 || lastName.length > 100) throw new UsageError('names must be at most 100 characters');
      const asked = roleOption(values.role);
      if (asked !== undefined && values.admin === true && asked !== 'admin')
        throw new UsageError('--admin and --role disagree: give one of them');
      const role: Role = asked ?? (values.admin === true ? 'admin' : 'member');
      const id = optionalPositiveInteger(values, 'id');
      if (id !== undefined && id > MAX_ID) throw new UsageError(`--id must be at most ${MAX_ID}`);
      if (await findUserByEmail(db, email))
        throw new CommandFailed(`a user with email ${email.toLowerCase()} already exists`);
      if (id !== undefined && (await findMirroredUser(db, id, dialect)))
        throw new CommandFailed(`a user with id ${id} already exists`);
      const user = await insertUser(db, {
        id,
        email,
        first_name: firstName,
        last_name: lastName,
        role,
        locale,
      });
      if (id !== undefined) await advanceUserIdSequence(db, dialect);
      out(userJson(user));
    },
  },
  {
    name: 'token:create',
    summary: 'Create a personal access token; the plaintext is printed once, alone on the last line.',
    usage: '--email E [--name N] [--expires-in-days D]',
    options: {
      email: { type: 'string', description: 'the user the token signs in' },
      name: { type: 'string', description: 'a label for the token (default "default")' },
      'expires-in-days': { type: 'string', description: 'lifetime in days (default: no expiry)' },
    },
    async run(values, { db, dialect, out, progress }) {
      const email = requireString(values, 'email');
      const name = typeof values.name === 'string' ? values.name.trim().slice(0, 100) || 'default' : 'default';
      const days = optionalPositiveInteger(values, 'expires-in-days');
      const user = await userWithEmail(db, email);
      if (!(await findMirroredUser(db, user.id, dialect))?.active)
        throw new CommandFailed(`${user.email} is inactive: its tokens would not sign in`);
      const token = await createToken(db, user.id, { name, expiresInDays: days });
      progress(
        `token ${token.id} for ${user.email}${token.expires_at ? `, expires ${token.expires_at}` : ', no expiry'}; it is shown only now:`,
      );
      out(token.plaintext);
    },
  },
  {
    name: 'token:revoke',
    summary: 'Revoke one token by id, or every token of a user.',
    usage: '--id ID | --email E --all',
    options: {
      id: { type: 'string', description: 'the token id (the number before the |)' },
      email: { type: 'string', description: 'with --all: the user whose tokens to revoke' },
      all: { type: 'boolean', description: 'revoke every token of --email' },
    },
    async run(values, { db, out }) {
      const id = optionalPositiveInteger(values, 'id');
      if (id !== undefined) {
        const count = await revokeToken(db, id);
        if (count === 0) throw new CommandFailed(`no active token with id ${id}`);
        out(`revoked token ${id}`);
        return;
      }
      if (values.email === undefined || values.all !== true) throw new UsageError('give --id ID, or --email E --all');
      const user = await userWithEmail(db, requireString(values, 'email'));
      const count = await revokeAllTokens(db, user.id);
      out(`revoked ${count} token${count === 1 ? '' : 's'} of ${user.email}`);
    },
  },
  {
    name: 'user:set-admin',
    summary: 'Grant (--on) or withdraw (--off) administrator rights.',
    usage: '--email E --on|--off',
    options: {
      email: { type: 'string', description: 'the user' },
      on: { type: 'boolean', description: 'make an administrator' },
      off: { type: 'boolean', description: 'make a regular user' },
    },
    async run(values, { db, out }) {
      const email = requireString(values, 'email');
      if ((values.on === true) === (values.off === true)) throw new UsageError('give exactly one of --on or --off');
      const user = await userWithEmail(db, email);
      // --off takes administrator rights away; a support role that came before them is not restored.
      const role: Role = values.on === true ? 'admin' : user.role === 'admin' ? 'member' : user.role;
      await changeRole(db, user, role);
      out(JSON.stringify({ id: user.id, email: user.email, is_admin: role === 'admin', role }));
    },
  },
  {
    name: 'user:set-role',
    summary: 'Give a user the role member, support or admin; taking staff rights away ends their console sessions.',
    usage: '--email E --role member|support|admin',
    options: {
      email: { type: 'string', description: 'the user' },
      role: { type: 'string', description: 'member, support (works tickets in the console) or admin' },
    },
    async run(values, { db, out }) {
      const email = requireString(values, 'email');
      const role = roleOption(values.role);
      if (role === undefined) throw new UsageError('--role is required');
      const user = await userWithEmail(db, email);
      await changeRole(db, user, role);
      out(userJson({ ...user, role }));
    },
  },
  {
    name: 'db:migrate',
    summary: 'Apply pending database migrations (the server also does this at start).',
    usage: '',
    options: {},
    ownsMigrations: true,
    async run(_values, { db, out }) {
      const applied = await migrateToLatest(db);
      out(applied.length ? `applied ${applied.length} migration(s): ${applied.join(', ')}` : 'database is up to date');
    },
  },
  ...listCommands,
];
