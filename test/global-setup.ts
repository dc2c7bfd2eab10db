// Runs once before any test file: builds dist/ when a source is newer than it (scripts/build.mjs
// --if-stale), so that files running in parallel find the build ready instead of each starting one.
// The CLI (helpers/process.ts) and the servers started from the build (harness/server.ts) run it.
import { ensureBuilt } from '../harness/server.js';

export default function setup(): void {
  ensureBuilt();
}
