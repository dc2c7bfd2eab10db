// The extraction worker's entry: reads one document (workerData: its kind and bytes), posts
// back its pages and sections or the reason it could not be read, and exits. Started by
// extraction.ts with a heap limit and a deadline; nothing here touches the database.
import { parentPort, workerData } from 'node:worker_threads';
import { extract } from './extract.js';
import { UnreadableDocument, type DocumentKind } from './limits.js';

const { kind, bytes } = workerData as { kind: DocumentKind; bytes: Uint8Array };

try {
  parentPort!.postMessage({ ok: true, extracted: await extract(kind, bytes) });
} catch (error) {
  const reason = error instanceof UnreadableDocument ? error.reason : 'malformed';
  const params = error instanceof UnreadableDocument ? error.params : {};
  parentPort!.postMessage({ ok: false, reason, params });
}
