// The assistant's index at start: read from the index kept in DATA_DIR when its key matches
// (index-snapshot.ts), else built from the store as ever; and kept again as the server closes.
// A kept index is as it was when written: the plugin's catch-up before the server listens (the
// change log after its last change, live.ts; the documents whose versions differ, added or gone,
// document-index.ts) brings it to the store of the moment.
import { performance } from 'node:perf_hooks';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { DEFAULT_RANKING, type KnowledgeBase } from '../assistant/knowledge.js';
import { documentSources } from '../kb-files/document-index.js';
import { changeMark, readSnapshotFile, snapshotBytes, snapshotKey, writeSnapshotFile } from './index-snapshot.js';
import { indexInputs, knowledgeFromStore, seedWhenEmpty } from './knowledge-feed.js';
import type { KnowledgeWatch } from './live.js';

export interface StartIndex {
  knowledge: KnowledgeBase;
  /** The last article change the index holds. */
  seen: number;
  /** The uploaded documents it holds, by id: their versions (DocumentIndex keeps it in step). */
  held: Map<number, string>;
  /** The kept index's key; undefined when the store has none (no migration table): nothing is kept. */
  key: string | undefined;
  /** Read from the kept index: the change and the versions it held when read. */
  read?: { seen: number; held: ReadonlyMap<number, string> };
}

/** The index a start serves: the kept one when its key matches and it reads whole, else one built. */
export async function indexAtStart(db: Kysely<Database>, file: string, log: FastifyBaseLogger): Promise<StartIndex> {
  const started = performance.now();
  await seedWhenEmpty(db);
  const inputs = indexInputs();
  let key: string | undefined;
  try {
    key = await snapshotKey(db, [inputs, DEFAULT_RANKING]);
  } catch (err) {
    log.warn({ err }, 'knowledge: the store has no identity; the index is built and not kept');
  }
  if (key !== undefined) {
    const found = await readSnapshotFile(db, file, key);
    if ('snapshot' in found) {
      const { knowledge, change, held } = found.snapshot;
      log.info(
        {
          passages: { en: knowledge.count('en'), fa: knowledge.count('fa') },
          documents: held.size,
          seen: change.seen,
          readMs: Math.round(performance.now() - started),
        },
        'knowledge: index read from the one kept',
      );
      return { knowledge, seen: change.seen, held, key, read: { seen: change.seen, held: new Map(held) } };
    }
    if (found.refused !== 'none')
      log.warn({ reason: found.refused, err: found.error }, 'knowledge: the kept index is not used; building');
  }
  const documents = await documentSources(db);
  const { knowledge, seen, buildMs } = await knowledgeFromStore(db, documents.sources, inputs);
  log.info(
    {
      passages: { en: knowledge.count('en'), fa: knowledge.count('fa') },
      documents: documents.sources.length,
      readMs: Math.round(performance.now() - started - buildMs),
      buildMs: Math.round(buildMs),
    },
    'knowledge: index built',
  );
  return { knowledge, seen, held: documents.held, key };
}

const sameVersions = (a: ReadonlyMap<number, string>, b: ReadonlyMap<number, string>): boolean =>
  a.size === b.size && [...a].every(([id, version]) => b.get(id) === version);

/**
 * Writes the index to `file` as the server closes (after the change log's watch has stopped, so the
 * index and the change it holds cannot move apart), unless it was read from the file and nothing
 * changed since. The write holds the event loop for a second or so at the benchmark's size, which a
 * closing server can spare and a serving one cannot. A failed write is a warning: the next start builds.
 */
export function indexKeeper(options: {
  db: Kysely<Database>;
  file: string;
  start: StartIndex;
  watch: KnowledgeWatch;
  log: FastifyBaseLogger;
}): { keep(): Promise<void> } {
  const { db, file, start, watch, log } = options;
  return {
    async keep() {
      try {
        const { key, read, knowledge, held } = start;
        if (key === undefined) return;
        const seen = watch.applied;
        if (read && read.seen === seen && sameVersions(read.held, held)) return;
        const change = await changeMark(db, seen);
        const began = performance.now();
        // The index, the change and the versions of one moment: no await from here to the bytes.
        const bytes = snapshotBytes(key, { knowledge, change, held: new Map(held) });
        const serializeMs = Math.round(performance.now() - began);
        await writeSnapshotFile(file, bytes);
        log.info({ bytes: bytes.length, seen, serializeMs }, 'knowledge: index kept for the next start');
      } catch (err) {
        log.warn({ err }, 'knowledge: cannot keep the index for the next start');
      }
    },
  };
}
