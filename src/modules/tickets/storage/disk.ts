// Attachments on the local disk, under DATA_DIR/attachments/<xx>/<key> (xx: the key's first two
// characters, so no folder grows past a few thousand files). Keeping a file is a rename of its
// temporary file, so a kept file is always complete.
import { randomBytes } from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { AttachmentStorage, ListedFile, TempFile } from './index.js';
import { TempFiles, filesIn, statOf, unlinkIfPresent } from './temp-files.js';

const KEY = /^[a-f0-9]{32}$/;
const SHARD = /^[a-f0-9]{2}$/;

export class DiskStorage implements AttachmentStorage {
  private readonly temps: TempFiles;

  constructor(private readonly root: string) {
    this.temps = new TempFiles(path.join(root, '.tmp'));
  }

  private pathOf(key: string): string {
    if (!KEY.test(key)) throw new Error(`invalid storage key ${key.slice(0, 40)}`);
    return path.join(this.root, key.slice(0, 2), key);
  }

  writeTemp(source: Readable): Promise<TempFile> {
    return this.temps.write(source);
  }

  async keep(temp: TempFile): Promise<string> {
    const key = randomBytes(16).toString('hex');
    const target = this.pathOf(key);
    await fsp.mkdir(path.dirname(target), { recursive: true });
    await fsp.rename(temp.path, target);
    return key;
  }

  discardTemp(temp: TempFile): Promise<void> {
    return this.temps.discard(temp);
  }

  async remove(key: string): Promise<void> {
    await fsp.rm(this.pathOf(key), { force: true });
  }

  async open(key: string): Promise<{ stream: Readable; size: number } | undefined> {
    let handle: fsp.FileHandle;
    try {
      handle = await fsp.open(this.pathOf(key), 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    const { size } = await handle.stat();
    return { stream: handle.createReadStream(), size };
  }

  /** The temporary files, then one batch per shard folder in name order. */
  async *list(): AsyncIterable<ListedFile[]> {
    yield await this.temps.list();
    let shards: string[] = [];
    try {
      shards = (await fsp.readdir(this.root, { withFileTypes: true }))
        .filter((e) => e.isDirectory() && SHARD.test(e.name))
        .map((e) => e.name);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    for (const shard of shards.sort()) {
      const batch: ListedFile[] = [];
      for (const name of await filesIn(path.join(this.root, shard))) {
        if (!KEY.test(name) || !name.startsWith(shard)) continue; // not a file this storage wrote: left alone
        const stat = await statOf(path.join(this.root, shard, name));
        if (stat) batch.push({ file: `${shard}/${name}`, key: name, ...stat });
      }
      yield batch;
    }
  }

  removeListed(file: ListedFile): Promise<boolean> {
    return file.key === undefined ? this.temps.remove(file) : unlinkIfPresent(this.pathOf(file.key));
  }

  async close(): Promise<void> {}
}
