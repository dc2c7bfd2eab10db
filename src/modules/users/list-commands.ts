// Operator commands that list: user:list and token:list. One JSON object per line on standard
// output (what the other commands print), so the output reads well and pipes into jq; a token's
// secret is never printed (only its hash is stored).
import { CommandFailed, requireString, type CliCommand } from '../../cli/command.js';
import { findUserByEmail, listUsers, roleOf } from './repository.js';
import { tokensOf } from './tokens.js';

export const listCommands: CliCommand[] = [
  {
    name: 'user:list',
    summary: 'List users, one JSON object per line (id, email, names, is_admin, role, active, created_at).',
    usage: '[--admin] [--email-like S]',
    options: {
      admin: { type: 'boolean', description: 'only administrators' },
      'email-like': { type: 'string', description: 'only addresses containing S (case-insensitive)' },
    },
    async run(values, { db, out, progress }) {
      const emailLike = typeof values['email-like'] === 'string' ? values['email-like'] : undefined;
      const users = await listUsers(db, { admin: values.admin === true, emailLike });
      for (const u of users)
        out(JSON.stringify({ ...u, is_admin: u.is_admin === 1, role: roleOf(u), active: u.active === 1 }));
      progress(`${users.length} user${users.length === 1 ? '' : 's'}`);
    },
  },
  {
    name: 'token:list',
    summary:
      "List a user's tokens, one JSON object per line (id, name, created, last used, expires, revoked); never the token.",
    usage: '--email E',
    options: { email: { type: 'string', description: 'the user whose tokens to list' } },
    async run(values, { db, out, progress }) {
      const email = requireString(values, 'email');
      const user = await findUserByEmail(db, email);
      if (!user) throw new CommandFailed(`no user with email ${email.toLowerCase()}`);
      const tokens = await tokensOf(db, user.id);
      for (const token of tokens) out(JSON.stringify(token));
      progress(
        `${tokens.length} token${tokens.length === 1 ? '' : 's'} of ${user.email}; revoke one with token:revoke --id N`,
      );
    },
  },
];
