// Zip archives written by hand: Office documents (docx.ts), archives the ticket uploads refuse,
// and zip bombs, honest or lying about their size.
import zlib from 'node:zlib';

export interface ZipEntry {
  name: string;
  data: Buffer;
  /** Claim this inflated size instead of the real one (a lying zip). */
  claimedSize?: number;
}

/**
 * A zip of the entries, stored as they are or deflated, with a correct central directory unless an
 * entry lies about its size.
 */
export function zip(entries: ZipEntry[], method: 'store' | 'deflate' = 'deflate'): Buffer {
  const locals: Buffer[] = [];
  const directory: Buffer[] = [];
  const methodCode = method === 'deflate' ? 8 : 0;
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const stored = method === 'deflate' ? zlib.deflateRawSync(entry.data, { level: 9 }) : entry.data;
    const crc = zlib.crc32(entry.data);
    const size = entry.claimedSize ?? entry.data.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(methodCode, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(stored.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, stored);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(methodCode, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(stored.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    directory.push(central, name);
    offset += 30 + name.length + stored.length;
  }
  const dir = Buffer.concat(directory);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dir, end]);
}
