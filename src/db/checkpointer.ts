// SQLite's WAL checkpoints moved off the event loop. By default SQLite checkpoints inside the commit
// that grows the WAL past 1,000 pages: that commit copies the pages into the database file and
// syncs it on the thread that serves requests, so under a steady stream of writes every few
// hundred chats one request waited for the copy and the fsync. Here the server's connection stops
// checkpointing (wal_autocheckpoint = 0) once a worker thread with a connection of its own does it
// every SQLITE_CHECKPOINT_MS (checkpoint-worker.ts). Should the worker fail, the connection
// checkpoints itself again, as before; so it does after stop().
import { Worker } from 'node:worker_threads';
import { workerEntry } from '../paths.js';

/** SQLite's own default: a commit that grows the WAL past this many pages checkpoints. */
export const AUTO_CHECKPOINT_PAGES = 1_000;
/**
 * The WAL frames past which the worker holds writers off to let the WAL start over (32 MB of 4 kB
 * pages): chosen with a loop of a chat's two transactions (docs/decisions.md, "SQLite checkpoints on
 * a worker thread").
 */
export const RESTART_PAGES = 8_000;

// The worker's entry, built or from source (paths.ts).
const WORKER = workerEntry('db/checkpoint-worker');

export interface WalCheckpointer {
  /** Checkpoints the worker has reported copying frames in. */
  readonly checkpoints: number;
  /** The server's connection checkpoints itself again, then the worker ends. */
  stop(): Promise<void>;
}

export interface CheckpointerOptions {
  /** The SQLite file the server's connection has open. */
  file: string;
  /** Runs a pragma on the server's connection. */
  pragma: (source: string) => unknown;
  intervalMs: number;
  /** Frames in the WAL past which the worker lets it start over (default RESTART_PAGES). */
  restartPages?: number;
  /** Called once when the worker fails after it started; the connection checkpoints itself again. */
  onFailure?: (error: Error) => void;
  /** How long the worker may take to open its connection (default 10 s). */
  startTimeoutMs?: number;
}

/** Starts the worker; resolves once it has its connection open and the server's connection has stopped checkpointing. */
export function startWalCheckpointer(options: CheckpointerOptions): Promise<WalCheckpointer> {
  const { file, pragma, intervalMs } = options;
  const worker = new Worker(WORKER.entry, {
    eval: WORKER.eval,
    workerData: { file, intervalMs, restartPages: options.restartPages ?? RESTART_PAGES },
  });
  let checkpoints = 0;
  let started = false;
  let stopped = false;
  const restore = () => pragma(`wal_autocheckpoint = ${AUTO_CHECKPOINT_PAGES}`);
  const handle: WalCheckpointer = {
    get checkpoints() {
      return checkpoints;
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      restore();
      worker.postMessage({ stop: true });
      await new Promise<void>((resolve) => {
        const hard = setTimeout(() => void worker.terminate(), 2_000);
        worker.once('exit', () => {
          clearTimeout(hard);
          resolve();
        });
      });
    },
  };
  return new Promise((resolve, reject) => {
    const timeout = setTimeout(
      () => fail(new Error('the checkpoint worker did not start in time')),
      options.startTimeoutMs ?? 10_000,
    );
    function fail(error: Error): void {
      clearTimeout(timeout);
      if (stopped) return;
      stopped = true;
      void worker.terminate();
      if (!started) {
        reject(error);
        return;
      }
      restore();
      options.onFailure?.(error);
    }
    worker.on('message', (message: { ready?: boolean; frames?: number }) => {
      if (message.frames !== undefined) checkpoints += 1;
      if (!message.ready || started) return;
      started = true;
      clearTimeout(timeout);
      pragma('wal_autocheckpoint = 0');
      resolve(handle);
    });
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the checkpoint worker exited (code ${code})`)));
  });
}
