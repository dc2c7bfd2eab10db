// kb:import DIR and kb:export DIR: the knowledge base to and from Markdown files (transfer.ts).
import path from 'node:path';
import { CommandFailed, type CliCommand, requireString } from '../../cli/command.js';
import { MalformedFile } from './markdown.js';
import { exportFolder, importFolder } from './transfer.js';

export const commands: CliCommand[] = [
  {
    name: 'kb:import',
    summary: 'Import the Markdown articles of a folder (one transaction; prints what changed)',
    usage: 'DIR',
    positional: 'dir',
    options: {
      dir: { type: 'string', description: 'The folder of <category>.<en|fa>.md files (and categories.json)' },
    },
    async run(values, { db, out, progress }) {
      const dir = path.resolve(requireString(values, 'dir'));
      try {
        const report = await importFolder(db, dir, null, progress);
        out(JSON.stringify(report));
      } catch (error) {
        if (error instanceof MalformedFile) throw new CommandFailed(`nothing imported: ${error.message}`);
        throw error;
      }
    },
  },
  {
    name: 'kb:export',
    summary: 'Write every article and category into a folder as Markdown (the format kb:import reads)',
    usage: 'DIR',
    positional: 'dir',
    options: {
      dir: {
        type: 'string',
        description: 'The folder to write (created when missing; files of the same names are replaced)',
      },
    },
    async run(values, { db, out }) {
      const dir = path.resolve(requireString(values, 'dir'));
      const files = await exportFolder(db, dir);
      out(JSON.stringify({ folder: dir, files: files.length }));
    },
  },
];
