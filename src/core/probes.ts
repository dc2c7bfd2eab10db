// What a feature hands the edge so that the edge never reads a feature's tables: readiness checks
// (GET /health/ready, http/health.ts) and metrics collectors (GET /metrics, http/metrics.ts).
import type { Registry } from 'prom-client';
import type { AppDeps } from './deps.js';

/** One check of GET /health/ready: `name` and `detail` are what a 503 answer reports when it fails. */
export interface ReadinessCheck {
  name: string;
  detail: string;
  /** True when ready; a check that throws counts as not ready. */
  ready(deps: AppDeps): Promise<boolean>;
}

/** Metrics a feature keeps up to date before each scrape of GET /metrics. */
export interface MetricsCollector {
  /** What the warning says when `collect` fails, e.g. "the mail outbox". */
  source: string;
  /** Creates the collector's metrics in the registry; returns what refreshes them. */
  register(registry: Registry, deps: AppDeps): () => Promise<void>;
}
