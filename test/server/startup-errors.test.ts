// Every start-up failure ends in one line on stderr naming what is wrong, and exit status 1; no
// stack, and no worker complaining afterwards about a database already closed.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/app.js';
import { runServerUntilExit } from '../../harness/server.js';

/** The server on port 0 (any free one) with the given settings, run until it exits. */
const runServer = (env: Record<string, string>) => runServerUntilExit({ PORT: '0', ...env });

/** Log lines at warn (40) or above: a worker's complaint or a stack would show up here. */
function complaints(stdout: string): string[] {
  return stdout.split('\n').filter((l) => l.startsWith('{') && (JSON.parse(l) as { level: number }).level >= 40);
}

describe('start-up errors', () => {
  let t: TestDatabase;
  let scratch: string;
  beforeAll(async () => {
    t = await createTestDatabase();
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'platform-startup-'));
    fs.writeFileSync(path.join(scratch, 'plain-file'), 'x');
  });
  afterAll(async () => {
    await t.destroy();
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  it.each([
    [
      { LLM_BASE_URL: 'http://127.0.0.1:9/v1' },
      'configuration error: LLM_MODEL must be set when LLM_BASE_URL is set (for example LLM_MODEL=llama3.2 for Ollama)',
    ],
    [
      { ASSISTANT_WELCOME_FILE: '/no/such/welcome.md' },
      'configuration error: ASSISTANT_WELCOME_FILE /no/such/welcome.md does not exist; point it at a readable text file or unset it',
    ],
    [
      { STORAGE_URL: 'file:///var/attachments' },
      'configuration error: STORAGE_URL must be s3://bucket or s3://bucket/prefix (bucket: 3-63 lowercase ' +
        'letters, digits, dots, hyphens), or unset for the local disk (got "file:///var/attachments")',
    ],
  ])(
    '%o: one line, exit 1',
    async (extra, line) => {
      const res = await runServer({ ...t.env, LOG_LEVEL: 'warn', ...extra });
      expect(res.code).toBe(1);
      expect(res.stderr).toBe(`${line}\n`);
      expect(complaints(res.stdout)).toEqual([]);
    },
    60_000,
  );

  it('DATA_DIR naming a plain file: one line, exit 1', async () => {
    const file = path.join(scratch, 'plain-file');
    const res = await runServer({ DATA_DIR: file, DATABASE_URL: '', LOG_LEVEL: 'warn' });
    expect(res.code).toBe(1);
    expect(res.stderr).toBe(`configuration error: DATA_DIR ${file} is not a directory\n`);
  }, 60_000);

  it('a taken port: one line, exit 1, and the workers stop quietly before the database closes', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      const res = await runServer({ ...t.env, PORT: String(port), LOG_LEVEL: 'warn' });
      expect(res.code).toBe(1);
      expect(res.stderr).toBe(
        `cannot listen on 127.0.0.1:${port}: listen EADDRINUSE: address already in use 127.0.0.1:${port}\n`,
      );
      expect(complaints(res.stdout)).toEqual([]);
    } finally {
      blocker.close();
    }
  }, 120_000);
});
