// The request-duration histogram (src/http/request-histogram.ts) must read in /metrics exactly as
// a prom-client Histogram with the same name, labels and buckets fed the same observations.
import { Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { RequestHistogram } from '../../src/http/request-histogram.js';

const NAME = 'http_request_duration_seconds';
const HELP = 'Request duration by route pattern, method and status class';
const LABELS = ['route', 'method', 'status_class'] as const;
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10];

function pair() {
  const theirs = new Registry();
  const ours = new Registry();
  const reference = new Histogram({
    name: NAME,
    help: HELP,
    labelNames: LABELS,
    buckets: BUCKETS,
    registers: [theirs],
  });
  const fast = new RequestHistogram(NAME, HELP, LABELS, BUCKETS, ours);
  return { theirs, ours, reference, fast };
}

describe('the request-duration histogram', () => {
  it('writes the exposition text of a prom-client histogram fed the same values', async () => {
    const { theirs, ours, reference, fast } = pair();
    const observations: Array<[string, string, string, number]> = [
      ['/api/provinces', 'GET', '2xx', 0.0004],
      ['/api/provinces', 'GET', '2xx', 0.001], // on a bound: counted in it (le)
      ['/api/provinces', 'GET', '3xx', 0.0031],
      ['/api/tickets/:id', 'GET', '4xx', 0.2],
      ['/api/tickets/:id', 'GET', '4xx', 11], // above every bound: only +Inf
      ['/api/tickets', 'POST', '2xx', 0.0123],
      ['/api/provinces', 'GET', '2xx', 2.5],
      ['a "quoted" \\ route\n', 'GET', '5xx', 0.07],
    ];
    for (const [route, method, status, seconds] of observations) {
      reference.labels(route, method, status).observe(seconds);
      fast.labels(route, method, status).observe(seconds);
    }
    const expected = await theirs.metrics();
    expect(expected).toContain(
      'http_request_duration_seconds_bucket{le="+Inf",route="/api/tickets/:id",method="GET",status_class="4xx"} 2',
    );
    expect(await ours.metrics()).toBe(expected);
  });

  it('keeps one series per label set and ignores a value that is not a finite number', async () => {
    const { ours, fast } = pair();
    const series = fast.labels('/x', 'GET', '2xx');
    expect(fast.labels('/x', 'GET', '2xx')).toBe(series);
    series.observe(Number.NaN);
    series.observe(Number.POSITIVE_INFINITY);
    series.observe(0.02);
    expect(series.count).toBe(1);
    expect(series.sum).toBe(0.02);
    expect(await ours.metrics()).toContain(
      'http_request_duration_seconds_count{route="/x",method="GET",status_class="2xx"} 1',
    );
  });

  it('writes only its help and type before anything is observed, as prom-client does', async () => {
    const { theirs, ours } = pair();
    expect(await ours.metrics()).toBe(await theirs.metrics());
  });
});
