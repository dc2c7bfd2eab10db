// The service as a process of its own, for tests that need real sockets, signals and crashes, and
// for the benchmarks. launchServer starts it on a free port with the environment it is given,
// waits until /health answers 200, and hands back a handle that stops it by its own pid. The
// server is always ONE process (node running the script itself, never the `tsx` or `npm` command
// in front of it unless asked for), so a signal sent to the pid reaches the server and a SIGKILL
// stands for a crash.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { freePort } from './ports.js';
import { waitFor } from './wait.js';

export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** How much of the server's output a handle keeps (the end of it). */
const OUTPUT_KEPT = 16 * 1024 * 1024;

export interface LaunchOptions {
  /**
   * Settings on top of the launcher's own: PATH and HOME from this process, HOST=127.0.0.1, PORT,
   * LOG_LEVEL=warn and RATE_LIMIT_PER_MINUTE=0 (many requests from one loopback address). A value
   * given here wins; an empty string stands for "unset" in the server's configuration.
   */
  env?: Record<string, string>;
  /**
   * 'source' (the default): `node --import tsx src/server.ts`, no build needed.
   * 'built': `node dist/server.js`, what `npm start` runs; dist/ is built first when stale.
   */
  entry?: 'source' | 'built';
  /** Node flags before the script (the benchmarks pass `npm start`'s). */
  nodeFlags?: string[];
  /** Words before node (the benchmarks pin the server to a core with `taskset -c 0`). */
  prefix?: string[];
  /** A whole command line instead of node and the entry (e.g. `npm start` in a scratch folder). */
  command?: string[];
  cwd?: string;
  /** A fixed port. Without one the launcher takes a free port, and another when that one was taken meanwhile. */
  port?: number;
  /** How long to wait for /health (default 90 s: the first start on a busy machine compiles a lot). */
  timeoutMs?: number;
  /** How often /health is asked (default every 150 ms; a benchmark timing the start asks more often). */
  pollMs?: number;
  /**
   * 'capture' (the default): stdout and stderr kept for output().
   * 'inherit': both to this process's terminal (stderr also kept).
   * 'stderr': stdout discarded (a server logging every request), stderr to the terminal and kept.
   */
  output?: 'capture' | 'inherit' | 'stderr';
}

export interface ServerProcess {
  child: ChildProcess;
  pid: number;
  port: number;
  url: string;
  /** What the process wrote (stdout and stderr, or stderr alone when stdout is not captured). */
  output(): string;
  /** Resolves with the exit code, or with the signal's name when a signal ended the process. */
  exited: Promise<number | string | null>;
  /** SIGTERM, then SIGKILL when the process is still there after graceMs; resolves with how it exited. */
  stop(graceMs?: number): Promise<number | string | null>;
  /** SIGKILL unless the process has already exited; resolves once it has. */
  kill(): Promise<void>;
  /** Milliseconds from the spawn to the first 200 from /health (a build check before the spawn not included). */
  readyMs: number;
}

/** Builds dist/ when it is older than src/ (scripts/build.mjs --if-stale). */
export function ensureBuilt(): void {
  const result = spawnSync(
    process.execPath,
    [path.join(projectRoot, 'scripts', 'build.mjs'), '--if-stale', '--quiet'],
    {
      cwd: projectRoot,
      encoding: 'utf8',
    },
  );
  if (result.status !== 0) throw new Error(`build failed: ${result.stdout}${result.stderr}`);
}

function commandFor(options: LaunchOptions): string[] {
  if (options.command) return options.command;
  const script =
    options.entry === 'built'
      ? [path.join(projectRoot, 'dist', 'server.js')]
      : ['--import', 'tsx', path.join(projectRoot, 'src', 'server.ts')];
  return [...(options.prefix ?? []), process.execPath, ...(options.nodeFlags ?? []), ...script];
}

/**
 * The servers this process started and that are still running. When this process exits or is
 * ended by a signal (Vitest ends a test file's worker with SIGTERM, also after a test that timed
 * out before its own clean-up; a benchmark interrupted with Ctrl-C), each of them is killed by its
 * pid, so no server outlives whoever started it. The signal is then raised again, so the process
 * ends as it would have without this.
 */
const running = new Set<ChildProcess>();
const reap = () => {
  for (const child of running) child.kill('SIGKILL');
};
process.once('exit', reap);
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
  process.once(signal, () => {
    reap();
    process.kill(process.pid, signal);
  });
}

function spawnServer(options: LaunchOptions, port: number): ServerProcess {
  const [command, ...args] = commandFor(options);
  const mode = options.output ?? 'capture';
  const child = spawn(command!, args, {
    cwd: options.cwd ?? projectRoot,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '0',
      HOST: '127.0.0.1',
      ...options.env,
      PORT: String(port),
    },
    stdio: ['ignore', mode === 'capture' ? 'pipe' : mode === 'inherit' ? 'inherit' : 'ignore', 'pipe'],
  });
  let output = '';
  const keep = (d: Buffer) => {
    output += d.toString();
    if (output.length > OUTPUT_KEPT) output = output.slice(-OUTPUT_KEPT);
  };
  child.stdout?.on('data', keep);
  child.stderr!.on('data', (d: Buffer) => {
    keep(d);
    if (mode !== 'capture') process.stderr.write(d);
  });
  running.add(child);
  const exited = new Promise<number | string | null>((resolve) =>
    child.on('exit', (code, signal) => {
      running.delete(child);
      resolve(code ?? signal);
    }),
  );
  const alive = () => child.exitCode === null && child.signalCode === null;
  return {
    child,
    pid: child.pid!,
    port,
    url: `http://127.0.0.1:${port}`,
    output: () => output,
    exited,
    async stop(graceMs = 15_000) {
      if (alive()) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
        await exited;
        clearTimeout(timer);
      }
      return exited;
    },
    async kill() {
      if (alive()) child.kill('SIGKILL');
      await exited;
    },
    readyMs: Number.NaN,
  };
}

/**
 * Starts the server and resolves once GET /health answers 200. When the process exits first, or
 * does not answer within timeoutMs, it is killed and the error carries the end of its output; a
 * port taken between the probe and the server's bind is retried on another one.
 */
export async function launchServer(options: LaunchOptions = {}): Promise<ServerProcess> {
  if (options.entry === 'built' && !options.command) ensureBuilt();
  for (let attempt = 1; ; attempt++) {
    const port = options.port ?? (await freePort());
    const spawnedAt = performance.now();
    const server = spawnServer(options, port);
    let gone = false;
    void server.exited.then(() => (gone = true));
    const state = await waitFor(
      'the server to answer /health',
      async () => {
        if (gone) return 'exited';
        const res = await fetch(`${server.url}/health`);
        await res.arrayBuffer();
        return res.status === 200 ? 'up' : false;
      },
      options.timeoutMs ?? 90_000,
      options.pollMs ?? 150,
    ).catch(() => 'silent');
    if (state === 'up') {
      server.readyMs = performance.now() - spawnedAt;
      return server;
    }
    await server.kill();
    const portTaken = state === 'exited' && /EADDRINUSE/.test(server.output());
    if (portTaken && options.port === undefined && attempt < 5) continue;
    const why = state === 'exited' ? `exited (${await server.exited})` : 'did not answer /health in time';
    throw new Error(`the server process ${why}: ${server.output().slice(-3000)}`);
  }
}

export interface ExitOutcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `node --import tsx src/server.ts` with exactly PATH and the given environment, for starts
 * that are meant to fail (a bad setting, a taken port), and resolves when it has exited.
 */
export function runServerUntilExit(env: Record<string, string>): Promise<ExitOutcome> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(projectRoot, 'src', 'server.ts')], {
    cwd: projectRoot,
    env: { PATH: process.env.PATH, ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
