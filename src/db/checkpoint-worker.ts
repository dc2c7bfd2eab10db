// The WAL checkpoints of the server's SQLite file, on a thread of their own (db/checkpointer.ts).
// Every intervalMs a passive checkpoint on this thread's own connection copies the frames committed
// since the last one into the database file and syncs it; the server's commits then only append to
// the WAL and never wait for that copy and its fsync. A passive checkpoint takes no lock that a
// reader or a writer waits for. But a writer starts the WAL over only when, as it begins, every
// frame has been copied, which under a steady stream of writes seldom happens: so once the WAL
// holds restartPages frames, a restarting checkpoint copies the few frames the passive one left,
// holding writers off meanwhile, and the next writer starts the WAL from its beginning.
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';

const { file, intervalMs, restartPages } = workerData as { file: string; intervalMs: number; restartPages: number };
const port = parentPort!;
const sqlite = new SQLite(file, { fileMustExist: true });
sqlite.pragma('synchronous = NORMAL');
// A restarting checkpoint waits this long for a reader to finish; when one does not, the next tries again.
sqlite.pragma('busy_timeout = 50');

interface CheckpointRow {
  busy: number;
  log: number;
  checkpointed: number;
}

let copied = -1;
const timer = setInterval(() => {
  let [row] = sqlite.pragma('wal_checkpoint(PASSIVE)') as CheckpointRow[];
  if (row && row.log >= restartPages) [row] = sqlite.pragma('wal_checkpoint(RESTART)') as CheckpointRow[];
  // Reported when it copied something new: the server counts the checkpoints (db/checkpointer.ts).
  if (row && row.checkpointed > 0 && row.checkpointed !== copied) port.postMessage({ frames: row.checkpointed });
  copied = row?.checkpointed ?? -1;
}, intervalMs);

port.on('message', (message: { stop?: boolean }) => {
  if (!message.stop) return;
  clearInterval(timer);
  sqlite.close();
  port.close();
});
port.postMessage({ ready: true });
