// A histogram for the request-duration metric, observed on every request: each label set's series
// is an object found by its label values, and an observation is a bucket search and three additions. A
// prom-client Histogram child does the same after converting, checking and hashing its labels on
// every call (measured: docs/performance.md "Geographic"). prom-client's registry
// formats this metric's values as it formats its own histogram's:
// test/http/request-histogram.test.ts holds the two to the same exposition text.
import type { MetricValueWithName, Registry } from 'prom-client';

/** What prom-client's registry reads from a metric to write its lines. */
export interface HistogramValues {
  name: string;
  help: string;
  type: 'histogram';
  aggregator: 'sum';
  values: MetricValueWithName<string>[];
}

/** One label set's counts. */
export class HistogramSeries {
  /** Observations per bucket (not cumulative); the last counts those above every bound. */
  readonly counts: Float64Array;
  sum = 0;
  count = 0;

  constructor(
    readonly labels: Readonly<Record<string, string>>,
    private readonly bounds: readonly number[],
  ) {
    this.counts = new Float64Array(bounds.length + 1);
  }

  observe(value: number): void {
    if (!Number.isFinite(value)) return;
    const bounds = this.bounds;
    let i = 0;
    while (i < bounds.length && value > bounds[i]!) i++;
    this.counts[i]! += 1;
    this.sum += value;
    this.count += 1;
  }
}

export class RequestHistogram<L extends string> {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly series = new Map<string, HistogramSeries>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly labelNames: readonly L[],
    private readonly bounds: readonly number[],
    registry: Registry,
  ) {
    registry.registerMetric(this as never);
  }

  /** The series of these label values (in labelNames' order), made on first use. */
  labels(...values: string[]): HistogramSeries {
    const key = values.join('\u0000');
    let series = this.series.get(key);
    if (!series) {
      series = new HistogramSeries(
        Object.fromEntries(this.labelNames.map((name, i) => [name, values[i] ?? ''])),
        this.bounds,
      );
      this.series.set(key, series);
    }
    return series;
  }

  /** The values as prom-client's registry reads a metric: cumulative buckets, +Inf, sum, count. */
  async get(): Promise<HistogramValues> {
    const values: MetricValueWithName<string>[] = [];
    const bucket = `${this.name}_bucket`;
    for (const s of this.series.values()) {
      let cumulative = 0;
      this.bounds.forEach((bound, i) => {
        cumulative += s.counts[i]!;
        values.push({ metricName: bucket, labels: { le: bound, ...s.labels }, value: cumulative });
      });
      values.push({ metricName: bucket, labels: { le: '+Inf', ...s.labels }, value: s.count });
      values.push({ metricName: `${this.name}_sum`, labels: { ...s.labels }, value: s.sum });
      values.push({ metricName: `${this.name}_count`, labels: { ...s.labels }, value: s.count });
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  reset(): void {
    this.series.clear();
  }
}
