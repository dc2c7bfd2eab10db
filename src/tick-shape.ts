// Keeps the shape of Node's process.nextTick queue entries alive for the life of the process.
//
// Node 20 builds each queue entry with one object literal (two symbol keys, callback, args), and V8
// remembers the shape it saw there. When no entry is alive during a full garbage collection, that
// shape is collected; the next entry gets a new one, V8 then treats the literal as seeing many
// shapes, and every later nextTick (several per HTTP request, in Node's own stream and HTTP code)
// takes V8's slow path for good. Holding one entry from the first tick on keeps the shape, so the
// literal stays on its fast path. Which builds of the service were hit and what it costs:
// docs/performance.md, "Against the starting commit".
import { executionAsyncResource } from 'node:async_hooks';

let held: object | undefined;

process.nextTick(() => {
  held = executionAsyncResource();
});

/** The queue entry held (once the first tick has run), for the test that checks its shape is kept. */
export function heldTickEntry(): object | undefined {
  return held;
}
