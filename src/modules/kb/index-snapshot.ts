// The assistant's index kept between starts: DATA_DIR/knowledge-index.bin holds the knowledge base
// as built (assistant/knowledge-snapshot.ts), the last article change it holds (the change log's
// id, and that row, to tell the log it was made from) and the version of each uploaded document
// it holds. A start whose key matches reads it instead of reading every passage and building;
// the change log and the documents' versions then bring it up to date (live.ts, document-index.ts).
// The key: the format, the code (every file of the build, or of src/ when run from the sources),
// the thesaurus, the questions outside the scope and the ranking the index was built with, and the
// store (the dialect, on PostgreSQL the database and schema, and every migration applied with its
// time: the first one's time tells one store from another, a new migration may change articles).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32 } from 'node:zlib';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { codeDir, projectRoot } from '../../paths.js';
import type { KnowledgeBase } from '../assistant/knowledge.js';
import { knowledgeBytes, knowledgeFromBytes } from '../assistant/knowledge-snapshot.js';
import { type ChangeMark, changeMark, changesSince, storeIdentity } from './snapshot-query.js';

export { type ChangeMark, changeMark, storeIdentity } from './snapshot-query.js';

export const SNAPSHOT_FILE = 'knowledge-index.bin';
/** Changes whenever what the file holds, or how, changes. */
const FORMAT = 1;
const MAGIC = Buffer.from('platform-api knowledge index\n');

export interface IndexSnapshot {
  knowledge: KnowledgeBase;
  change: ChangeMark;
  /** By uploaded document's id: the version (updated_at) its passages in the index are of. */
  held: Map<number, string>;
}

interface Header {
  format: number;
  key: string;
  change: ChangeMark;
  held: Array<[number, string]>;
  bytes: number;
  crc: number;
}

function filesUnder(dir: string, ending: string, deep: boolean): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory() && deep) found.push(...filesUnder(full, ending, deep));
    else if (entry.isFile() && entry.name.endsWith(ending)) found.push(full);
  }
  return found;
}

let code: string | undefined;

/**
 * The code's identity: the package's version and the contents of every module the server runs
 * from. Built, that is the .js files at the top of dist/ (the entry and the shared chunks the
 * bundler puts the application and its bundled packages in); from the sources (tests, tsx), every
 * .ts file under src/ and the version of MiniSearch, whose radix tree the word index keeps.
 */
export function codeIdentity(): string {
  if (code !== undefined) return code;
  const hash = createHash('sha256');
  const read = (file: string) => fs.readFileSync(file);
  hash.update(read(path.join(projectRoot, 'package.json')));
  const dir = fileURLToPath(codeDir);
  const built = !fs.existsSync(path.join(dir, 'server.ts'));
  const files = built ? filesUnder(dir, '.js', false) : filesUnder(dir, '.ts', true);
  if (!built) files.push(path.join(projectRoot, 'node_modules', 'minisearch', 'package.json'));
  for (const file of files) hash.update(`${path.relative(projectRoot, file)}\n`).update(read(file));
  code = hash.digest('hex');
  return code;
}

/** The key a snapshot is read under: everything the index is made from but the passages. */
export async function snapshotKey(db: Kysely<Database>, inputs: unknown): Promise<string> {
  return createHash('sha256')
    .update(JSON.stringify([FORMAT, codeIdentity(), inputs, await storeIdentity(db)]))
    .digest('hex');
}

/** The snapshot as bytes: synchronous, so the index, the change and the versions are of one moment. */
export function snapshotBytes(key: string, snapshot: IndexSnapshot): Buffer {
  const payload = knowledgeBytes(snapshot.knowledge);
  const header: Header = {
    format: FORMAT,
    key,
    change: snapshot.change,
    held: [...snapshot.held],
    bytes: payload.length,
    crc: crc32(payload),
  };
  const json = Buffer.from(JSON.stringify(header));
  const length = Buffer.alloc(4);
  length.writeUInt32LE(json.length);
  return Buffer.concat([MAGIC, length, json, payload]);
}

/**
 * Writes the bytes beside the file, on disk before they are renamed over it: a reader sees the old
 * file or the new, also after a crash.
 */
export async function writeSnapshotFile(file: string, bytes: Buffer): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    const handle = await fs.promises.open(temporary, 'w');
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.promises.rename(temporary, file);
  } catch (error) {
    await fs.promises.rm(temporary, { force: true });
    throw error;
  }
}

/** Why a snapshot was not read: none, another key, damaged bytes, a change log it was not made from. */
export type Refusal = 'none' | 'key' | 'damaged' | 'log' | 'behind';

/**
 * A kept index this many article changes behind the log or more is not read: the catch-up replaces
 * one passage per change, and far behind, a build costs less.
 */
export const MAX_CATCH_UP = 1_000;

/**
 * The snapshot in the file when it was made under `key` from this store's change log, or why not.
 * Never throws for what the file holds.
 */
export async function readSnapshotFile(
  db: Kysely<Database>,
  file: string,
  key: string,
): Promise<{ snapshot: IndexSnapshot } | { refused: Refusal; error?: unknown }> {
  let bytes: Buffer;
  try {
    bytes = await fs.promises.readFile(file);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? { refused: 'none' } : { refused: 'damaged', error };
  }
  let header: Header;
  let payload: Buffer;
  try {
    if (!bytes.subarray(0, MAGIC.length).equals(MAGIC)) return { refused: 'damaged' };
    const length = bytes.readUInt32LE(MAGIC.length);
    const start = MAGIC.length + 4 + length;
    header = JSON.parse(bytes.subarray(MAGIC.length + 4, start).toString('utf8')) as Header;
    if (header.format !== FORMAT || header.key !== key) return { refused: 'key' };
    if (!Number.isSafeInteger(header.change?.seen) || !Array.isArray(header.held)) return { refused: 'damaged' };
    payload = bytes.subarray(start);
    if (payload.length !== header.bytes || crc32(payload) !== header.crc) return { refused: 'damaged' };
  } catch (error) {
    return { refused: 'damaged', error };
  }
  // The log must hold the change the index was made at, as it was: a store put back from a backup,
  // or another copy of it, may number other changes alike.
  const at = await changeMark(db, header.change.seen);
  if (JSON.stringify(at) !== JSON.stringify(header.change)) return { refused: 'log' };
  // Far behind the log, catching up passage by passage costs more than a build.
  if ((await changesSince(db, header.change.seen, MAX_CATCH_UP + 1)) > MAX_CATCH_UP) return { refused: 'behind' };
  try {
    const held = new Map(header.held.map(([id, version]) => [Number(id), String(version)]));
    const knowledge = knowledgeFromBytes(payload);
    return { snapshot: { knowledge, change: header.change, held } };
  } catch (error) {
    return { refused: 'damaged', error };
  }
}
