import { CommandFailed, UsageError, requireString, type CliCommand } from '../../cli/command.js';
import { nowIso } from '../../db/index.js';
import { holidayCommands } from './holiday-commands.js';
import { findTagByName, insertTag } from './repository.js';
import { createStorage } from './storage/create.js';
import { describeSwept, sweepStorage } from './storage/sweep.js';

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
  {
    name: 'storage:sweep',
    summary:
      'Remove attachment files (on the disk or in the S3 bucket) no ticket or comment records (left by crashed or cut-short uploads); prints each one.',
    usage: '[--older-than-minutes M] [--dry-run]',
    options: {
      'older-than-minutes': {
        type: 'string',
        description: 'only files last written at least this long ago (default 60); keep it above the longest upload',
      },
      'dry-run': { type: 'boolean', description: 'print what would be removed, remove nothing' },
    },
    async run(values, { db, config, out }) {
      const raw = values['older-than-minutes'];
      if (raw !== undefined && (typeof raw !== 'string' || !/^\d{1,9}$/.test(raw))) {
        throw new UsageError('--older-than-minutes must be a whole number of minutes (0 or more)');
      }
      const minutes = raw === undefined ? 60 : Number(raw);
      const dryRun = values['dry-run'] === true;
      const storage = await createStorage(config);
      const result = await sweepStorage(db, storage, { graceMs: minutes * 60_000, dryRun }).finally(() =>
        storage.close(),
      );
      for (const file of result.removed) out(`${dryRun ? 'would remove' : 'removed'} ${describeSwept(file)}`);
      const bytes = result.removed.reduce((n, f) => n + f.size, 0);
      out(
        `storage:sweep: ${dryRun ? 'would remove' : 'removed'} ${result.removed.length} ${result.removed.length === 1 ? 'file' : 'files'} (${bytes} bytes); ` +
          `${result.scanned} scanned, ${result.tooYoung} younger than ${minutes} min left alone`,
      );
    },
  },
  ...holidayCommands,
];
