// Runs the real CLI as a child process, as `npm run cli` runs it: node dist/cli.js, built from src/
// before the first file runs (test/global-setup.ts). Through tsx from src/ each run spent about four
// times as long compiling, which on a loaded machine pushed a test of several runs past its time
// out. Server processes: harness/server.ts.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { projectRoot } from '../../harness/server.js';

const cli = path.join(projectRoot, 'dist', 'cli.js');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The CLI with the given arguments; the child sees only PATH, HOME, LOG_LEVEL=warn and `env`. */
export function runCli(args: string[], env: Record<string, string>, cwd = projectRoot): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], {
      cwd,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'warn', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}
