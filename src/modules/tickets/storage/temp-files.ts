// Local temporary files of uploads in progress, in one folder: both drivers stream an upload here
// first (the file-type check reads the bytes), and the sweep lists what a crash left behind.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ListedFile, TempFile } from './index.js';

export class TempFiles {
  constructor(private readonly dir: string) {}

  async write(source: Readable): Promise<TempFile> {
    await fsp.mkdir(this.dir, { recursive: true });
    const temp = path.join(this.dir, randomBytes(16).toString('hex'));
    const out = fs.createWriteStream(temp, { flags: 'wx' });
    try {
      await pipeline(source, out);
    } catch (error) {
      await fsp.rm(temp, { force: true });
      throw error;
    }
    return { path: temp, size: out.bytesWritten };
  }

  async discard(temp: TempFile): Promise<void> {
    await fsp.rm(temp.path, { force: true });
  }

  /** The temporary files present now, reported as ".tmp/<name>". */
  async list(): Promise<ListedFile[]> {
    const listed: ListedFile[] = [];
    for (const name of await filesIn(this.dir)) {
      const stat = await statOf(path.join(this.dir, name));
      if (stat) listed.push({ file: `.tmp/${name}`, ...stat });
    }
    return listed;
  }

  async remove(file: ListedFile): Promise<boolean> {
    return unlinkIfPresent(path.join(this.dir, path.basename(file.file)));
  }
}

/** Names of the plain files in a folder; none when the folder does not exist. */
export async function filesIn(dir: string): Promise<string[]> {
  try {
    const entries = await fsp.readdir(dir, { withFileTypes: true });
    return entries.filter((e) => e.isFile()).map((e) => e.name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

export async function statOf(full: string): Promise<{ size: number; modifiedMs: number } | undefined> {
  try {
    const s = await fsp.lstat(full);
    return s.isFile() ? { size: s.size, modifiedMs: s.mtimeMs } : undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** false when the file was removed meanwhile (another sweep, the request's own clean-up). */
export async function unlinkIfPresent(full: string): Promise<boolean> {
  try {
    await fsp.unlink(full);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}
