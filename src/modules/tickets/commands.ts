import { CommandFailed, UsageError, requireString, type CliCommand } from '../../cli/command.js';
import { nowIso } from '../../db/index.js';
import { findTagByName, insertTag } from './repository.js';

export const commands: CliCommand[] = [
  {
    name: 'tag:create',
    summary: 'Create a ticket tag and print it as JSON (its id is what clients send in tags[]).',
    usage: '--name N',
    options: { name: { type: 'string', description: 'the tag name (unique, at most 100 characters)' } },
    async run(values, { db, out }) {
      const name = requireString(values, 'name');
      if (name.length > 100) throw new UsageError('--name must be at most 100 characters');
      if (await findTagByName(db, name)) throw new CommandFailed(`a tag named "${name}" already exists`);
      out(JSON.stringify(await insertTag(db, name, nowIso())));
    },
  },
];
