// The model server's series, kept by the provider that calls it and printed by GET /metrics from
// the process registry.
import { Counter, Histogram } from 'prom-client';
import { processRegistry } from '../../../core/metrics.js';

/** The outcomes of a model call and the codes of a failed one: every series exists, at zero, from the start. */
export const PROVIDER_OUTCOMES = ['ok', 'error'] as const;
export const PROVIDER_ERROR_CODES = ['llm_timeout', 'llm_error'] as const;

export const providerLatency = new Histogram({
  name: 'assistant_provider_duration_seconds',
  help: 'Time the assistant model server took to answer, by outcome',
  labelNames: ['outcome'] as const,
  buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
  registers: [processRegistry],
});
export const providerErrors = new Counter({
  name: 'assistant_provider_errors_total',
  help: 'Failed calls to the assistant model server, by error code',
  labelNames: ['code'] as const,
  registers: [processRegistry],
});
// A series that appears only with its first event breaks rate() and alerts on it until then.
for (const outcome of PROVIDER_OUTCOMES) providerLatency.zero({ outcome });
for (const code of PROVIDER_ERROR_CODES) providerErrors.inc({ code }, 0);
