// The PostgreSQL driver, loaded when the service first needs it: a server on SQLite never does,
// and loading it took a measurable share of a start (docs/performance.md, "Startup"). Synchronous
// (Node's require) so that opening a database stays synchronous; the build leaves `pg` to
// node_modules, where a production install has it.
import { createRequire } from 'node:module';
import type pg from 'pg';

const load = createRequire(import.meta.url);
let driver: typeof pg | undefined;

export function pgDriver(): typeof pg {
  driver ??= load('pg') as typeof pg;
  return driver;
}
