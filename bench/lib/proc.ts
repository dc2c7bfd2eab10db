// What a process costs, read from Linux's /proc. Percentiles: src/core/percentile.ts.
import fs from 'node:fs';
import v8 from 'node:v8';
import vm from 'node:vm';

/** User + system CPU time in a /proc stat file (a process's or a thread's), µs. */
function statCpuMicros(file: string): number {
  const fields = fs.readFileSync(file, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000; // utime + stime in clock ticks of 10 ms
}

/** User + system CPU time of a process, µs. */
export const processCpuMicros = (pid: number): number => statCpuMicros(`/proc/${pid}/stat`);

/** CPU time of one thread of a process (its JavaScript thread has the process's id), µs; Linux only. */
export const threadCpuMicros = (pid: number, tid: number): number => statCpuMicros(`/proc/${pid}/task/${tid}/stat`);

/** The process's resident memory (VmRSS), MiB with one decimal. */
export function rssMiB(pid: number): number {
  const kB = /^VmRSS:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1];
  return Math.round((Number(kB) / 1024) * 10) / 10;
}

/** The processes a process started, and theirs (read from /proc while they run). */
function descendants(pid: number): number[] {
  const found: number[] = [];
  let tasks: string[];
  try {
    tasks = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return found;
  }
  for (const task of tasks) {
    let children = '';
    try {
      children = fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8');
    } catch {
      continue;
    }
    for (const child of children.split(' ').filter(Boolean).map(Number)) found.push(child, ...descendants(child));
  }
  return found;
}

/** User + system CPU time of a process and of its children that have exited and been waited for, µs. */
function cpuWithExitedChildrenMicros(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * 10_000;
}

/**
 * User + system CPU time of a process and of every process it started, µs: those still running,
 * and those that have exited (counted in their parent's children time: `npm start` runs a build
 * step, then node).
 */
export function treeCpuMicros(pid: number): number {
  let total = 0;
  for (const each of [pid, ...descendants(pid)]) {
    try {
      total += cpuWithExitedChildrenMicros(each);
    } catch {
      // exited meanwhile
    }
  }
  return total;
}

/** A full collection in this process, so heap figures are of what is still held. */
export function fullCollection(): void {
  v8.setFlagsFromString('--expose-gc');
  (vm.runInNewContext('gc') as () => void)();
}
