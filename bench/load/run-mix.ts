// Running the mix: `connections` clients in a loop for a number of seconds, each request timed;
// then the figures per request type and overall.
import { percentile } from '../../src/core/percentile.js';
import { chooseOp, MIX, pick, type World } from './mix.js';

export interface Stats {
  latencies: Map<string, number[]>;
  errors: Map<string, number>;
  firstErrors: string[];
  total: number;
  seconds: number;
}

export async function runMix(
  server: { url: string },
  world: World,
  connections: number,
  seconds: number,
  onTick?: (elapsed: number) => void,
): Promise<Stats> {
  const stats: Stats = { latencies: new Map(), errors: new Map(), firstErrors: [], total: 0, seconds };
  const started = Date.now();
  const end = started + seconds * 1000;
  let counter = 0;
  const ticker = onTick ? setInterval(() => onTick((Date.now() - started) / 1000), 10_000) : undefined;
  const worker = async () => {
    while (Date.now() < end) {
      const [name, op] = chooseOp();
      const n = counter++;
      const t0 = performance.now();
      let failure: string | undefined;
      try {
        const res = await op(server.url, world, pick(world.clients), n);
        if (res.status < 200 || res.status >= 300) failure = `${name}: ${res.status} ${res.body.slice(0, 200)}`;
      } catch (error) {
        failure = `${name}: ${(error as Error).message}`;
      }
      const ms = performance.now() - t0;
      stats.total += 1;
      if (failure) {
        stats.errors.set(name, (stats.errors.get(name) ?? 0) + 1);
        if (stats.firstErrors.length < 5) stats.firstErrors.push(failure);
      } else {
        let list = stats.latencies.get(name);
        if (!list) {
          list = [];
          stats.latencies.set(name, list);
        }
        list.push(ms);
      }
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  if (ticker) clearInterval(ticker);
  stats.seconds = (Date.now() - started) / 1000;
  return stats;
}

export function summary(stats: Stats) {
  const all = [...stats.latencies.values()].flat().sort((a, b) => a - b);
  const errors = [...stats.errors.values()].reduce((s, n) => s + n, 0);
  return {
    rps: Math.round(stats.total / stats.seconds),
    p50: percentile(all, 0.5) ?? Number.NaN,
    p99: percentile(all, 0.99) ?? Number.NaN,
    errors,
  };
}

export const ms = (v: number) => (Number.isNaN(v) ? '-' : v < 10 ? v.toFixed(1) : Math.round(v).toString());

export function table(stats: Stats): string {
  const rows = MIX.map(([name]) => {
    const list = (stats.latencies.get(name) ?? []).sort((a, b) => a - b);
    const count = list.length + (stats.errors.get(name) ?? 0);
    return (
      `| ${name} | ${count} | ${(count / stats.seconds).toFixed(1)} | ` +
      `${ms(percentile(list, 0.5) ?? Number.NaN)} | ${ms(percentile(list, 0.99) ?? Number.NaN)} | ` +
      `${stats.errors.get(name) ?? 0} |`
    );
  });
  const s = summary(stats);
  return [
    '| request | count | req/s | p50 ms | p99 ms | errors |',
    '|---|---|---|---|---|---|',
    ...rows,
    `| **all** | ${stats.total} | ${s.rps} | ${ms(s.p50)} | ${ms(s.p99)} | ${s.errors} |`,
  ].join('\n');
}
