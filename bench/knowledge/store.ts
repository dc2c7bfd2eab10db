// Filling the benchmark's store: the generated articles written as an editor's would be (through
// the knowledge base's service, revisions and change log included), and the generated documents
// uploaded as staff upload them (POST /api/admin/kb/files, multipart, an administrator's token)
// and read by the server's own extraction worker until every one is ready.
import { performance } from 'node:perf_hooks';
import type { Kysely } from 'kysely';
import type { Database } from '../../src/db/schema.js';
import { writeArticle } from '../../src/modules/kb/service.js';
import { type GeneratedDocument, generatedArticles } from './corpus.js';
import { pdfOfPages } from '../../harness/pdf.js';

/** Writes perLanguage generated articles per language, published, 500 to a transaction. */
export async function writeGeneratedArticles(db: Kysely<Database>, perLanguage: number): Promise<void> {
  const articles = generatedArticles(perLanguage);
  for (let start = 0; start < articles.length; start += 500)
    await db.transaction().execute(async (trx) => {
      for (const article of articles.slice(start, start + 500))
        await writeArticle(
          trx,
          null,
          undefined,
          { ...article, pages: [], next: [], category: null, tags: [], status: 'published' },
          'create',
        );
    });
}

interface FileView {
  id: number;
  status: 'processing' | 'ready' | 'failed';
  page_count?: number | null;
  passage_count?: number | null;
  failure?: unknown;
}

/**
 * Uploads each document as a PDF, then waits until every file is ready (a failed one is an error).
 * Returns the time until the last was ready, the PDFs' total size and the files' pages.
 */
export async function uploadDocuments(
  url: string,
  auth: Record<string, string>,
  documents: GeneratedDocument[],
): Promise<{ ms: number; bytes: number; pages: number }> {
  const started = performance.now();
  const ids: number[] = [];
  let bytes = 0;
  for (const doc of documents) {
    const pdf = pdfOfPages(doc.pages);
    bytes += pdf.length;
    const form = new FormData();
    form.append('title', doc.title);
    form.append('lang', doc.lang);
    form.append('file', new Blob([pdf], { type: 'application/pdf' }), doc.name);
    const res = await fetch(`${url}/api/admin/kb/files`, { method: 'POST', headers: auth, body: form });
    const body = (await res.json()) as { data?: FileView };
    if (res.status !== 202 || !body.data) throw new Error(`upload of ${doc.name} answered ${res.status}`);
    ids.push(body.data.id);
  }
  let pages = 0;
  const waiting = new Set(ids);
  while (waiting.size > 0) {
    for (const id of [...waiting]) {
      const res = await fetch(`${url}/api/admin/kb/files/${id}`, { headers: auth });
      const file = ((await res.json()) as { data: FileView }).data;
      if (file.status === 'failed') throw new Error(`file ${id} failed: ${JSON.stringify(file.failure)}`);
      if (file.status === 'ready') {
        waiting.delete(id);
        pages += file.page_count ?? 0;
      }
    }
    if (performance.now() - started > 30 * 60_000)
      throw new Error(`${waiting.size} files still processing after 30 min`);
    if (waiting.size > 0) await new Promise((r) => setTimeout(r, 250));
  }
  return { ms: performance.now() - started, bytes, pages };
}
