// Every file under a folder, for the tests that look at what is on disk (stored attachments,
// temporary uploads, DATA_DIR) and those that read source trees (the architecture rules), and for
// the start-up benchmark's copy of a project folder that is not a git checkout.
import fs from 'node:fs';
import path from 'node:path';

export interface FilesUnderOptions {
  /** Keeps a file by its name (default: every file). */
  keep?: (name: string) => boolean;
  /** Leaves a folder out, by its full path (default: none). */
  skipFolder?: (folder: string) => boolean;
  /** Paths relative to dir instead of full ones. */
  relative?: boolean;
}

/** The paths of the files under dir (full, or relative to it), sorted; none when dir does not exist. */
export function filesUnder(dir: string, options: FilesUnderOptions = {}): string[] {
  const { keep = () => true, skipFolder = () => false, relative = false } = options;
  const found: string[] = [];
  const walk = (folder: string) => {
    for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) {
        if (!skipFolder(full)) walk(full);
      } else if (keep(entry.name)) found.push(relative ? path.relative(dir, full) : full);
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return found.sort();
}
