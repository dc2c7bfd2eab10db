// Operator commands of the staff console's sign-in: console:link prints a one-time link.
import { CommandFailed, requireString, type CliCommand } from '../../../cli/command.js';
import { findMirroredUser, findUserByEmail } from '../repository.js';
import { createLinkFor, linkRefusal } from './service.js';

export const commands: CliCommand[] = [
  {
    name: 'console:link',
    summary: 'Print a one-time sign-in link to the staff console (single use, 15 minutes) for a support or admin user.',
    usage: '--email E',
    options: { email: { type: 'string', description: 'the staff member to sign in' } },
    async run(values, { config, db, dialect, out, progress }) {
      const email = requireString(values, 'email');
      const found = await findUserByEmail(db, email);
      const user = found && (await findMirroredUser(db, found.id, dialect));
      if (!user) throw new CommandFailed(`no user with email ${email.toLowerCase()}`);
      const refusal = linkRefusal(user);
      if (refusal === 'inactive') throw new CommandFailed(`${user.email} is inactive`);
      if (refusal === 'not_staff')
        throw new CommandFailed(`${user.email} is a member: give them a role first (user:set-role --role support)`);
      const link = await createLinkFor({ config, db, dialect }, user.id);
      progress(`sign-in link for ${user.email}, single use, until ${link.expires_at}:`);
      out(link.url);
    },
  },
];
