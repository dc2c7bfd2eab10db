// The uploaded documents in the assistant's knowledge base: every ready, active file's passages,
// one source per file (file:<id>, PassageSource.add/remove: only that file's passages change in the
// index). refresh() compares the files' versions (updated_at) with what the index holds and reads
// only the files that changed; it runs after each change this instance makes and every REFRESH_MS
// for the changes other instances make.
import type { Kysely } from 'kysely';
import { t, type Locale } from '../../core/i18n.js';
import { nowIso } from '../../db/index.js';
import type { Database } from '../../db/schema.js';
import type { Passage, PassageSource } from '../assistant/knowledge.js';
import { EXTRACTION_LIMITS } from './limits.js';
import type { DocumentPassage } from './passages.js';
import * as repo from './repository.js';
import './messages.js';

/** The index source of one uploaded document. */
export const documentSource = (fileId: number) => `file:${fileId}`;
export const REFRESH_MS = 2_000;
/** A file still processing after this long lost its process (a crash, a restart). */
const ABANDONED_MS = Math.max(10 * 60_000, EXTRACTION_LIMITS.timeMs * 4);

/** The passage id of a document's passage in chat sources: file-<file id>.<position>. */
export const passageId = (fileId: number, position: number) => `file-${fileId}.${position}`;

/** A document passage as the assistant's knowledge base takes it; its question is how the chat cites it. */
export function asKnowledgePassage(
  file: { id: number; title: string; lang: Locale },
  passage: DocumentPassage,
): Passage {
  const cite =
    passage.page !== null
      ? t(file.lang, 'kb_files.cite.page', { title: file.title, page: passage.page })
      : passage.heading
        ? t(file.lang, 'kb_files.cite.heading', { title: file.title, heading: passage.heading })
        : file.title;
  return {
    id: passageId(file.id, passage.position),
    lang: file.lang,
    topic: `file-${file.id}`,
    question: cite,
    alternates: passage.heading ? [passage.heading] : [],
    answer: passage.body,
    document: true,
  };
}

/** The passages of one document, as one source of the knowledge base. */
export interface DocumentSource {
  source: string;
  passages: Passage[];
}

/**
 * Every ready, active document's passages, read at start so the knowledge base is built once with
 * the articles (a build of everything weighs every phrasing once), and the version of each file.
 */
export async function documentSources(
  db: Kysely<Database>,
): Promise<{ sources: DocumentSource[]; held: Map<number, string> }> {
  const sources: DocumentSource[] = [];
  const held = new Map<number, string>();
  for (const file of await repo.indexedFiles(db)) {
    const lang: Locale = file.lang === 'fa' ? 'fa' : 'en';
    const passages = (await repo.passagesOf(db, file.id)).map((p) =>
      asKnowledgePassage({ id: file.id, title: file.title, lang }, p),
    );
    sources.push({ source: documentSource(file.id), passages });
    held.set(file.id, String(file.updated_at));
  }
  return { sources, held };
}

export class DocumentIndex {
  /** Per indexed file: its version (the map given, kept in step: a kept index writes it, kb/index-snapshot.ts). */
  private readonly held: Map<number, string>;
  private running: Promise<void> | undefined;
  private again = false;
  private timer: NodeJS.Timeout | undefined;

  /**
   * held: the files the knowledge base holds and their versions (documentSources, or a kept
   * index's), updated in place as the index follows the database.
   */
  constructor(
    private readonly db: Kysely<Database>,
    private readonly knowledge: PassageSource,
    held: Map<number, string> = new Map(),
  ) {
    this.held = held;
  }

  /** Brings the index up to date with the database; calls that overlap share one pass plus one more. */
  refresh(): Promise<void> {
    if (this.running !== undefined) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          await this.pass();
        } while (this.again);
      } finally {
        this.running = undefined;
      }
    })();
    return this.running;
  }

  private async pass(): Promise<void> {
    await repo.failAbandoned(this.db, new Date(Date.now() - ABANDONED_MS).toISOString(), nowIso());
    const files = await repo.indexedFiles(this.db);
    const current = new Set(files.map((f) => f.id));
    for (const id of [...this.held.keys()])
      if (!current.has(id)) {
        this.held.delete(id);
        this.knowledge.remove(documentSource(id));
      }
    for (const file of files) {
      const version = String(file.updated_at);
      if (this.held.get(file.id) === version) continue;
      const lang: Locale = file.lang === 'fa' ? 'fa' : 'en';
      const passages = (await repo.passagesOf(this.db, file.id)).map((p) =>
        asKnowledgePassage({ id: file.id, title: file.title, lang }, p),
      );
      this.knowledge.add(documentSource(file.id), passages);
      this.held.set(file.id, version);
    }
  }

  /** Refreshes every REFRESH_MS until stop(); a failed pass (the database away) is retried at the next tick. */
  start(onError: (error: unknown) => void): void {
    this.timer = setInterval(() => this.refresh().catch(onError), REFRESH_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }
}
