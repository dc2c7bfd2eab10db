// Reading a document off the request's thread: one worker thread per document, with a heap limit
// (resourceLimits) and a deadline. A worker that runs out of memory, passes its deadline or dies
// in any other way is a document that could not be read, with that reason; the server goes on.
import { Worker } from 'node:worker_threads';
import { workerEntry } from '../../paths.js';
import type { Extracted } from './extract.js';
import { EXTRACTION_LIMITS, type DocumentKind } from './limits.js';

export type ExtractionResult =
  | { ok: true; extracted: Extracted }
  | { ok: false; reason: string; params: Record<string, string | number> };

// The worker's entry, built or from source (paths.ts).
const WORKER = workerEntry('modules/kb-files/extract-worker');

export function extractInWorker(
  kind: DocumentKind,
  bytes: Uint8Array,
  limits: { timeMs: number; heapMb: number } = EXTRACTION_LIMITS,
): Promise<ExtractionResult> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: ExtractionResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      void worker.terminate();
      resolve(result);
    };
    const copy = new Uint8Array(bytes);
    const worker = new Worker(WORKER.entry, {
      eval: WORKER.eval,
      workerData: { kind, bytes: copy },
      transferList: [copy.buffer],
      resourceLimits: { maxOldGenerationSizeMb: limits.heapMb, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
      stdout: true,
      stderr: true,
    });
    // The readers' own warnings are not the server's log.
    worker.stdout.resume();
    worker.stderr.resume();
    const deadline = setTimeout(
      () => finish({ ok: false, reason: 'timeout', params: { seconds: Math.round(limits.timeMs / 1000) } }),
      limits.timeMs,
    );
    worker.on('message', (message: ExtractionResult) => finish(message));
    worker.on('error', (error: Error & { code?: string }) =>
      finish({
        ok: false,
        reason: error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'out_of_memory' : 'worker_failed',
        params: {},
      }),
    );
    worker.on('exit', () => finish({ ok: false, reason: 'worker_failed', params: {} }));
  });
}
