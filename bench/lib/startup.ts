// The first start of a fresh clone, for bench/startup.ts: the project's files as git would check
// them out (tracked and new files, nothing ignored: no dist/, no data/), with the installed
// node_modules linked in, as they are after `npm install`.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { filesUnder } from '../../harness/files.js';
import { projectRoot } from '../../harness/server.js';

export function runGit(args: string[], cwd = projectRoot): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();
}

/** What a clone has no copy of, for a project folder that is not a git checkout. */
const NOT_CHECKED_OUT = new Set(['node_modules', 'dist', 'dist.next', 'data', '.git', 'coverage']);

const filesOutsideGit = (root: string) =>
  filesUnder(root, {
    relative: true,
    keep: (name) => !NOT_CHECKED_OUT.has(name),
    skipFolder: (folder) => NOT_CHECKED_OUT.has(path.basename(folder)),
  });

/**
 * Copies the project's checked-out files (as a clone would have them) to dest and links its
 * node_modules. A folder that is not a git checkout (an exported older commit) is copied without
 * node_modules, dist/ and data/.
 */
export function copyForFirstStart(root: string, dest: string): void {
  const files = fs.existsSync(path.join(root, '.git'))
    ? runGit(['ls-files', '-z', '--cached', '--others', '--exclude-standard'], root).split('\0').filter(Boolean)
    : filesOutsideGit(root);
  for (const file of files) {
    const from = path.join(root, file);
    if (!fs.existsSync(from)) continue; // deleted in the work tree, not yet committed
    fs.mkdirSync(path.dirname(path.join(dest, file)), { recursive: true });
    fs.copyFileSync(from, path.join(dest, file));
  }
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(dest, 'node_modules'), 'dir');
}
