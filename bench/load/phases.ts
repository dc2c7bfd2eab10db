// The two phases of the load benchmark: the search for the rate (connections doubled until errors,
// a p99 blow-up or saturation) and the long run at the chosen rate with the server's memory and
// CPU read from /proc.
import os from 'node:os';
import { processCpuMicros, rssMiB } from '../lib/proc.js';
import type { World } from './mix.js';
import { ms, runMix, summary, table } from './run-mix.js';

type Out = (line: string) => void;

/** Least-squares slope of y over x. */
function slope(points: Array<[number, number]>): number {
  const n = points.length;
  const mx = points.reduce((s, p) => s + p[0], 0) / n;
  const my = points.reduce((s, p) => s + p[1], 0) / n;
  const num = points.reduce((s, p) => s + (p[0] - mx) * (p[1] - my), 0);
  const den = points.reduce((s, p) => s + (p[0] - mx) ** 2, 0);
  return den === 0 ? 0 : num / den;
}

export const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** Steps 2, 4, 8, ... connections for stepSeconds each; returns the last good step. */
export async function findConnections(
  server: { url: string },
  world: World,
  stepSeconds: number,
  out: Out,
): Promise<number> {
  out(`\n## finding the rate: ${stepSeconds} s per step`);
  out('| connections | req/s | p50 ms | p99 ms | errors |\n|---|---|---|---|---|');
  let best: { connections: number; rps: number; p99: number } | undefined;
  for (let c = 2; c <= 256; c *= 2) {
    const step = summary(await runMix(server, world, c, stepSeconds));
    out(`| ${c} | ${step.rps} | ${ms(step.p50)} | ${ms(step.p99)} | ${step.errors} |`);
    const blewUp = step.errors > 0 || step.p99 > 1000 || (best && step.p99 > 4 * best.p99 && step.rps < 1.1 * best.rps);
    if (blewUp) break;
    if (best && step.rps < 1.05 * best.rps) break; // saturated: more connections only queue
    best = { connections: c, rps: step.rps, p99: step.p99 };
  }
  if (!best) throw new Error('even 2 connections gave errors or a p99 over 1 s');
  out(`\nchosen: ${best.connections} connections (the last step before errors, a p99 blow-up or saturation)`);
  return best.connections;
}

/** The mix for `seconds` at `connections`, with VmRSS sampled every 10 s and CPU time of both sides. */
export async function longRun(
  server: { url: string; pid: number },
  world: World,
  connections: number,
  seconds: number,
  out: Out,
): Promise<void> {
  const pid = server.pid;
  out(`\n## long run: ${connections} connections for ${seconds} s`);
  const samples: Array<[number, number]> = [[0, rssMiB(pid)]];
  const cpuStart = processCpuMicros(pid);
  const clientCpuStart = process.cpuUsage();
  const stats = await runMix(server, world, connections, seconds, (elapsed) => samples.push([elapsed, rssMiB(pid)]));
  // The last tick may have fired at the very end: one sample per moment.
  if (stats.seconds - samples.at(-1)![0] < 1) samples.pop();
  samples.push([stats.seconds, rssMiB(pid)]);
  const cpu = (processCpuMicros(pid) - cpuStart) / 1e6;
  const clientCpu = process.cpuUsage(clientCpuStart);
  out(table(stats));
  if (stats.firstErrors.length) out(`first errors:\n${stats.firstErrors.map((e) => `  ${e}`).join('\n')}`);
  const half = samples.filter(([t]) => t >= stats.seconds / 2);
  out(
    `\nserver CPU: ${cpu.toFixed(1)} s over ${stats.seconds.toFixed(0)} s ` +
      `(${((cpu / stats.seconds) * 100).toFixed(0)} % of one core), ${((cpu / stats.total) * 1e6).toFixed(0)} µs per request`,
  );
  out(
    `load generator CPU (this process): ${((clientCpu.user + clientCpu.system) / 1e6).toFixed(1)} s ` +
      `(${(((clientCpu.user + clientCpu.system) / 1e6 / stats.seconds) * 100).toFixed(0)} % of one core)`,
  );
  out(`VmRSS MiB (t s: MiB): ${samples.map(([t, v]) => `${Math.round(t)}: ${v}`).join(', ')}`);
  // RSS swings with garbage collection; the lowest value of each third is the floor it returns to.
  const thirds = [0, 1, 2].map((i) =>
    samples.filter(([t]) => t >= (i * stats.seconds) / 3 && t <= ((i + 1) * stats.seconds) / 3).map(([, v]) => v),
  );
  out(
    `VmRSS per third of the run (min-max MiB): ${thirds.map((v) => (v.length ? `${Math.min(...v)}-${Math.max(...v)}` : '-')).join(', ')}`,
  );
  out(
    `VmRSS start ${samples[0]![1]} MiB, end ${samples.at(-1)![1]} MiB; slope ` +
      `${(slope(samples) * 60).toFixed(1)} MiB/min overall, ${(slope(half) * 60).toFixed(1)} MiB/min over the second half`,
  );
}
