// npm test: the whole suite on SQLite, then again on PostgreSQL when TEST_DATABASE_URL is set.
// Extra arguments go to vitest (a file filter, -t "name"). Ends with one summary line:
// "tests: N passed, N failed".
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const extra = process.argv.slice(2);
const runs = [{ name: 'sqlite', env: { TEST_DB: 'sqlite' } }];
if (process.env.TEST_DATABASE_URL) runs.push({ name: 'postgres', env: { TEST_DB: 'postgres' } });
else process.stderr.write('TEST_DATABASE_URL is not set: running on SQLite only\n');

let passed = 0;
let failed = 0;
let exitCode = 0;
for (const run of runs) {
  process.stdout.write(`\n=== tests on ${run.name} ===\n`);
  const report = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'platform-vitest-')), 'report.json');
  const result = spawnSync(
    process.execPath,
    [
      'node_modules/vitest/vitest.mjs',
      'run',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${report}`,
      ...extra,
    ],
    { stdio: 'inherit', env: { ...process.env, ...run.env } },
  );
  if (result.status !== 0) exitCode = result.status ?? 1;
  if (fs.existsSync(report)) {
    const summary = JSON.parse(fs.readFileSync(report, 'utf8'));
    passed += summary.numPassedTests;
    failed += summary.numFailedTests;
    if (summary.numTotalTests === 0) exitCode = exitCode || 1;
  } else {
    exitCode = exitCode || 1;
  }
}
process.stdout.write(`\ntests: ${passed} passed, ${failed} failed\n`);
process.exit(exitCode);
