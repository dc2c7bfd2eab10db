// What a process costs, read from Linux's /proc, and the order statistics the benchmarks report.
import fs from 'node:fs';

/** User + system CPU time of a process, µs. */
export function processCpuMicros(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000; // utime + stime in clock ticks of 10 ms
}

/** The process's resident memory (VmRSS), MiB with one decimal. */
export function rssMiB(pid: number): number {
  const kB = /^VmRSS:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1];
  return Math.round((Number(kB) / 1024) * 10) / 10;
}

/** The p-th percentile of ascending values (nearest rank); NaN for none. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
