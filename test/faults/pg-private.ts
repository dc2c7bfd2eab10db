// A throw-away PostgreSQL cluster for tests that stop the database: never the shared one.
// initdb refuses to run as root, so as root the cluster is made and run by the postgres user.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

function binDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root)
    ? fs.readdirSync(root).filter((v) => fs.existsSync(path.join(root, v, 'bin', 'initdb')))
    : [];
  if (versions.length === 0) throw new Error('no PostgreSQL server binaries under /usr/lib/postgresql/*/bin');
  return path.join(root, versions.sort((a, b) => Number(b) - Number(a))[0]!, 'bin');
}

export class PrivatePostgres {
  private readonly bin = binDir();
  private readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), 'private-pg-'));
  private readonly data = path.join(this.dir, 'data');
  private readonly asRoot = process.getuid?.() === 0;

  constructor(readonly port: number) {}

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  private run(tool: string, args: string[]): void {
    const command = path.join(this.bin, tool);
    if (this.asRoot)
      execFileSync('runuser', ['-u', 'postgres', '--', command, ...args], { stdio: 'pipe', timeout: 60_000 });
    else execFileSync(command, args, { stdio: 'pipe', timeout: 60_000 });
  }

  init(): void {
    fs.chmodSync(this.dir, 0o777);
    if (this.asRoot) execFileSync('chown', ['postgres', this.dir]);
    this.run('initdb', ['-D', this.data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
  }

  start(): void {
    const options = `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=40`;
    this.run('pg_ctl', [
      '-D',
      this.data,
      '-l',
      path.join(this.dir, 'server.log'),
      '-o',
      options,
      '-w',
      '-t',
      '60',
      'start',
    ]);
  }

  /** Fast shutdown: open sessions are terminated, as when the database is stopped for maintenance. */
  stop(): void {
    this.run('pg_ctl', ['-D', this.data, '-m', 'fast', '-w', '-t', '60', 'stop']);
  }

  /** The server's processes (postmaster first), by id: for freezing them with SIGSTOP. */
  pids(): number[] {
    const postmaster = Number(fs.readFileSync(path.join(this.data, 'postmaster.pid'), 'utf8').split('\n')[0]);
    const children = execFileSync('pgrep', ['-P', String(postmaster)], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number);
    return [postmaster, ...children];
  }

  destroy(): void {
    try {
      this.run('pg_ctl', ['-D', this.data, '-m', 'immediate', '-w', '-t', '30', 'stop']);
    } catch {
      // already stopped
    }
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
