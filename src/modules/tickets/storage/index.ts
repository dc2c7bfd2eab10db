// Where attachment bytes live. The default writes under DATA_DIR/attachments: each upload is
// streamed to a temporary file, inspected, then renamed to a random key (never the client's name).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface TempFile {
  path: string;
  size: number;
}

export interface AttachmentStorage {
  /** Streams the source to a temporary file; the caller inspects it, then keeps or discards it. */
  writeTemp(source: Readable): Promise<TempFile>;
  /** Moves a temporary file into storage; returns its key. */
  keep(temp: TempFile): Promise<string>;
  discardTemp(temp: TempFile): Promise<void>;
  remove(key: string): Promise<void>;
  /** The stored bytes and their size, or undefined when the file is gone. */
  open(key: string): Promise<{ stream: Readable; size: number } | undefined>;
}

const KEY = /^[a-f0-9]{32}$/;

export class DiskStorage implements AttachmentStorage {
  private readonly tempDir: string;

  constructor(private readonly root: string) {
    this.tempDir = path.join(root, '.tmp');
  }

  private pathOf(key: string): string {
    if (!KEY.test(key)) throw new Error(`invalid storage key ${key.slice(0, 40)}`);
    return path.join(this.root, key.slice(0, 2), key);
  }

  async writeTemp(source: Readable): Promise<TempFile> {
    await fsp.mkdir(this.tempDir, { recursive: true });
    const temp = path.join(this.tempDir, randomBytes(16).toString('hex'));
    const out = fs.createWriteStream(temp, { flags: 'wx' });
    try {
      await pipeline(source, out);
    } catch (error) {
      await fsp.rm(temp, { force: true });
      throw error;
    }
    return { path: temp, size: out.bytesWritten };
  }

  async keep(temp: TempFile): Promise<string> {
    const key = randomBytes(16).toString('hex');
    const target = this.pathOf(key);
    await fsp.mkdir(path.dirname(target), { recursive: true });
    await fsp.rename(temp.path, target);
    return key;
  }

  async discardTemp(temp: TempFile): Promise<void> {
    await fsp.rm(temp.path, { force: true });
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
}

export function defaultStorage(dataDir: string): AttachmentStorage {
  return new DiskStorage(path.join(dataDir, 'attachments'));
}
