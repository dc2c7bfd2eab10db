// The process-wide metrics registry: the process itself (prom-client's default metrics) and the
// counters features keep for the whole process (the assistant's model calls, rate-limit
// rejections, the mailbox fetcher, open streams). Features register their own series here; the
// edge's GET /metrics (http/metrics.ts) prints it beside the per-app registry.
import { Registry, collectDefaultMetrics } from 'prom-client';

export const processRegistry = new Registry();
collectDefaultMetrics({ register: processRegistry });
// prom-client names three gauges with a counter's _total suffix, which `promtool check metrics`
// refuses; each is the sum of its per-type gauge (nodejs_active_handles{type} …), which stays.
for (const name of ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'])
  processRegistry.removeSingleMetric(name);
