// The dependency container every module receives (app.deps on the edge, an argument in services).
import type { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { DatabaseHandle, Dialect } from '../db/index.js';
import type { Database } from '../db/schema.js';

/** What every module gets from the app: app.deps. */
export interface AppDeps {
  config: Config;
  db: Kysely<Database>;
  dialect: Dialect;
  database: DatabaseHandle;
  /** Present when REDIS_URL is set. */
  redis?: Redis;
  /** false in tests that want no background workers (outbox sender and the like). */
  startWorkers: boolean;
  /** false to skip loading the bundled geographic data at start (tests of other areas). */
  loadGeoData: boolean;
}
