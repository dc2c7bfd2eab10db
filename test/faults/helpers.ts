// Fault tests run the real server as ONE process: `node --import tsx src/server.ts`. (The tsx
// command starts node as a second process and relays signals; a kill -9 of the wrapper would leave
// the real server running, so it could not stand for a crash.)
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from '../../src/db/schema.js';
import { makeToken, makeUser } from '../helpers/factories.js';
import { projectRoot } from '../helpers/process.js';
import { PDF, PNG } from '../tickets/helpers.js';

export interface RunningServer {
  child: ChildProcess;
  url: string;
  port: number;
  output: () => string;
  /** Resolves with the exit code, or the signal name when killed by one. */
  exited: Promise<number | string | null>;
  /** SIGKILL if still running (afterAll / finally). */
  kill(): Promise<void>;
}

/** A port that was free a moment ago on 127.0.0.1, in the 20000–60000 range. */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 40_000);
    const free = await new Promise<boolean>((resolve) => {
      const probe = net.createServer();
      probe.once('error', () => resolve(false));
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
    });
    if (free) return port;
  }
}

function spawnServer(env: Record<string, string>, port: number): RunningServer {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(projectRoot, 'src', 'server.ts')], {
    cwd: projectRoot,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '0',
      HOST: '127.0.0.1',
      PORT: String(port),
      ...env,
    },
  });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | string | null>((resolve) =>
    child.on('exit', (code, signal) => resolve(code ?? signal)),
  );
  return {
    child,
    port,
    url: `http://127.0.0.1:${port}`,
    output: () => output,
    exited,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
    },
  };
}

/** Starts the server and waits for /health to answer 200; retries on a port taken meanwhile. */
export async function startServerProcess(
  env: Record<string, string>,
  options: { port?: number; timeoutMs?: number } = {},
): Promise<RunningServer> {
  for (let attempt = 1; ; attempt++) {
    const port = options.port ?? (await freePort());
    const server = spawnServer(env, port);
    const deadline = Date.now() + (options.timeoutMs ?? 90_000);
    let gone = false;
    void server.exited.then(() => (gone = true));
    while (!gone && Date.now() < deadline) {
      try {
        const res = await fetch(`${server.url}/health`);
        if (res.status === 200) return server;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 150));
    }
    await server.kill();
    if (gone && /EADDRINUSE/.test(server.output()) && options.port === undefined && attempt < 5) continue;
    throw new Error(`server did not become healthy: ${server.output().slice(-3000)}`);
  }
}

/** A user with a token, written straight into the database the server uses. */
export async function userWithToken(db: Kysely<Database>, options: Parameters<typeof makeUser>[1] = {}) {
  const user = await makeUser(db, options);
  const token = await makeToken(db, user.id);
  return { ...user, token, headers: { authorization: `Bearer ${token}` } };
}

export interface UploadFile {
  name: string;
  content: Buffer;
}

/** Small valid files of three types, each with its own bytes (so a mix-up would show). */
export function uniqueFiles(tag: string): UploadFile[] {
  const nonce = randomBytes(12).toString('hex');
  return [
    // Bytes after IEND are ignored by readers and keep the file a valid PNG.
    { name: `shot-${tag}.png`, content: Buffer.concat([PNG, Buffer.from(`${tag}:${nonce}`)]) },
    { name: `doc-${tag}.pdf`, content: Buffer.concat([PDF, Buffer.from(`% ${tag} ${nonce}\n`)]) },
    { name: `note-${tag}.txt`, content: Buffer.from(`note ${tag}\n${nonce}\n${'x'.repeat(200)}\n`) },
  ];
}

/** A multipart/form-data body for fetch. */
export function formWith(fields: Record<string, string>, files: UploadFile[]): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const f of files) form.append('attachments[]', new Blob([new Uint8Array(f.content)]), f.name);
  return form;
}

export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined | false>,
  timeoutMs = 30_000,
  everyMs = 200,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
