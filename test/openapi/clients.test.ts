// The document as client developers use it, with tools nobody here wrote: Redocly (recommended) and
// Spectral (spectral:oas) find no error, and three generators (openapi-typescript + openapi-fetch,
// orval, @hey-api/openapi-ts) make clients with which a typed flow (test/openapi/flows/) compiles
// under --strict without a cast and runs against a real server process. The document is fetched
// from that server and the clients generated once per run, into node_modules/.cache (so the flows
// resolve the project's packages). docs/openapi.md explains what this proves.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchServer, projectRoot, type ServerProcess } from '../../harness/server.js';
import { userWithToken } from '../../harness/users.js';
import { createTestDatabase, type TestDatabase } from '../helpers/app.js';

const bin = (name: string) => path.join(projectRoot, 'node_modules', '.bin', name);
const FLOWS = ['openapi-fetch', 'orval', 'hey-api'] as const;

/** Runs a command; resolves with its exit code, its standard output and both outputs together. */
function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}) {
  return new Promise<{ code: number | null; stdout: string; output: string }>((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, NO_COLOR: '1', ...env } });
    let stdout = '';
    let output = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      output += chunk;
    });
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, output }));
  });
}

let database: TestDatabase;
let server: ServerProcess;
let workDir: string;
let token: string;

beforeAll(async () => {
  database = await createTestDatabase();
  token = (await userWithToken(database.db)).token;
  server = await launchServer({ env: database.env });
  const cache = path.join(projectRoot, 'node_modules', '.cache');
  fs.mkdirSync(cache, { recursive: true });
  workDir = fs.mkdtempSync(path.join(cache, 'openapi-clients-'));
  const doc = await (await fetch(`${server.url}/openapi.json`)).text();
  fs.writeFileSync(path.join(workDir, 'openapi.json'), doc);
  // The flows are ES modules (top-level await) wherever the folder is.
  fs.writeFileSync(path.join(workDir, 'package.json'), '{"type":"module","private":true}\n');
  for (const flow of FLOWS)
    fs.copyFileSync(path.join(projectRoot, 'test', 'openapi', 'flows', `${flow}.ts`), path.join(workDir, `${flow}.ts`));
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await database?.destroy();
  if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
});

describe('the document under the linters client developers run', () => {
  it('has no Redocly error under the recommended rules (redocly.yaml)', async () => {
    const result = await run(
      bin('redocly'),
      ['lint', 'openapi.json', '--config', path.join(projectRoot, 'redocly.yaml'), '--format', 'json'],
      workDir,
    );
    const report = JSON.parse(result.stdout) as {
      totals: { errors: number };
      problems: Array<{ ruleId: string; severity: string; message: string }>;
    };
    expect(report.problems.filter((p) => p.severity === 'error')).toEqual([]);
    expect(report.totals.errors).toBe(0);
  }, 60_000);

  it('has no Spectral error under spectral:oas, and every tag is declared and every operation described', async () => {
    const result = await run(
      bin('spectral'),
      ['lint', 'openapi.json', '--ruleset', path.join(projectRoot, '.spectral.yaml'), '--format', 'json', '--quiet'],
      workDir,
    );
    const problems = JSON.parse(result.stdout) as Array<{
      code: string;
      severity: number;
      message: string;
      path: string[];
    }>;
    expect(problems.filter((p) => p.severity === 0)).toEqual([]);
    const mustNotAppear = ['operation-tag-defined', 'operation-description', 'operation-operationId', 'operation-tags'];
    expect(problems.filter((p) => mustNotAppear.includes(p.code))).toEqual([]);
  }, 60_000);
});

describe('generated clients', () => {
  beforeAll(async () => {
    const generated = path.join(workDir, 'generated');
    fs.writeFileSync(
      path.join(workDir, 'orval.config.cjs'),
      `module.exports = { platform: { input: { target: './openapi.json' }, output: { target: ` +
        `'./generated/orval/api.ts', client: 'fetch', baseUrl: ${JSON.stringify(server.url)} } } };\n`,
    );
    const jobs = await Promise.all([
      run(
        bin('openapi-typescript'),
        ['openapi.json', '-o', path.join(generated, 'openapi-typescript', 'schema.d.ts')],
        workDir,
      ),
      run(bin('orval'), ['--config', 'orval.config.cjs'], workDir),
      run(
        bin('openapi-ts'),
        ['-i', 'openapi.json', '-o', path.join(generated, 'hey-api'), '-c', '@hey-api/client-fetch'],
        workDir,
      ),
    ]);
    for (const job of jobs) expect(job.code, job.output).toBe(0);
    fs.writeFileSync(
      path.join(workDir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'ESNext',
          moduleResolution: 'Bundler',
          lib: ['ES2023', 'DOM'],
          types: ['node'],
          strict: true,
          noUncheckedIndexedAccess: true,
          skipLibCheck: true,
          noEmit: true,
        },
        files: FLOWS.map((flow) => `${flow}.ts`),
      }),
    );
  }, 180_000);

  it('compile the typed flows under --strict, none of which casts', async () => {
    for (const flow of FLOWS) {
      // The code without comments and string literals: no `as T`, no `<T>x`, no @ts- directive.
      const code = fs
        .readFileSync(path.join(workDir, `${flow}.ts`), 'utf8')
        .replace(/^\s*\/\/.*$/gm, '')
        .replace(/'[^'\n]*'|`[^`]*`|"[^"\n]*"/g, "''");
      expect(code, flow).not.toMatch(/\bas\s+(?!const\b)\w|<\w+>\s*\w|@ts-/);
    }
    const result = await run(bin('tsc'), ['-p', 'tsconfig.json'], workDir);
    expect(result.output).toBe('');
    expect(result.code).toBe(0);
  }, 180_000);

  it.each(FLOWS)(
    'run the %s flow against the server: provinces, a ticket, its filters, the chat',
    async (flow) => {
      const result = await run(process.execPath, ['--import', 'tsx', `${flow}.ts`], workDir, {
        SERVER_URL: server.url,
        API_TOKEN: token,
      });
      expect(result.code, result.output).toBe(0);
      const line = JSON.parse(result.stdout.trim().split('\n').at(-1)!) as { client: string; id: number; sla: string };
      expect(line.client).toBe(flow);
      expect(line.sla).toBe('on_time');
    },
    60_000,
  );
});
