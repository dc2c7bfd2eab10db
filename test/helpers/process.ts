// Runs the real CLI and server as child processes (through tsx, straight from src/).
import { spawn, type ChildProcess } from 'node:child_process';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const tsx = path.join(projectRoot, 'node_modules', '.bin', 'tsx');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  // The child sees only what the test gives it, plus what a shell needs to run node.
  return { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'warn', ...env };
}

export function runCli(args: string[], env: Record<string, string>, cwd = projectRoot): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(tsx, [path.join(projectRoot, 'src', 'cli.ts'), ...args], { cwd, env: childEnv(env) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  output: () => string;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
}

/** Starts src/server.ts on the given port and waits until /health answers. */
export function startServer(env: Record<string, string>, port: number, timeoutMs = 60_000): Promise<ServerProcess> {
  return launch(tsx, [path.join(projectRoot, 'src', 'server.ts')], env, port, timeoutMs);
}

/** Runs a server command on the port and waits until /health answers (the output's last 200 kB kept). */
async function launch(
  command: string,
  args: string[],
  env: Record<string, string>,
  port: number,
  timeoutMs: number,
): Promise<ServerProcess> {
  const child = spawn(command, args, {
    cwd: projectRoot,
    env: childEnv({ HOST: '127.0.0.1', PORT: String(port), ...env }),
  });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-200_000)));
  child.stderr!.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-200_000)));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  let exitedEarly = false;
  void exited.then(() => (exitedEarly = true));
  while (Date.now() < deadline && !exitedEarly) {
    try {
      const res = await fetch(`${url}/health`);
      if (res.ok) return { child, url, output: () => output, exited };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  // tsx runs the server in a child process of its own: SIGKILL to tsx alone would leave it running.
  if (child.pid) killTree(child.pid);
  else child.kill('SIGKILL');
  throw new Error(`server did not become healthy: ${output.slice(-2000)}`);
}

/** Sends the signal to the process and every process below it (read from /proc; Linux). */
export function killTree(pid: number, signal: NodeJS.Signals = 'SIGKILL'): void {
  const below = (parent: number): number[] => {
    const children: number[] = [];
    try {
      for (const task of fs.readdirSync(`/proc/${parent}/task`)) {
        children.push(
          ...fs.readFileSync(`/proc/${parent}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
        );
      }
    } catch {
      // the process is gone (or there is no /proc)
    }
    return children.flatMap((child) => [child, ...below(child)]);
  };
  // All of them are found before any is signalled: a killed parent's children move to init.
  for (const target of [pid, ...below(pid)]) {
    try {
      process.kill(target, signal);
    } catch {
      // already gone
    }
  }
}

/** A port the OS says is free now (bound to port 0 and released). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Builds dist/ when it is older than src/ (scripts/build.mjs --if-stale). */
export function ensureBuilt(): void {
  const result = spawnSync(
    process.execPath,
    [path.join(projectRoot, 'scripts', 'build.mjs'), '--if-stale', '--quiet'],
    { cwd: projectRoot, encoding: 'utf8' },
  );
  if (result.status !== 0) throw new Error(`build failed: ${result.stdout}${result.stderr}`);
}

/** The production server, `node dist/server.js`, on a free port, waited for until /health answers. */
export async function startBuiltServer(
  env: Record<string, string>,
  timeoutMs = 60_000,
): Promise<ServerProcess & { port: number }> {
  ensureBuilt();
  const port = await freePort();
  return {
    ...(await launch(process.execPath, [path.join(projectRoot, 'dist', 'server.js')], env, port, timeoutMs)),
    port,
  };
}
