// npm test: the whole suite on SQLite, then again on PostgreSQL when TEST_DATABASE_URL is set.
// Extra arguments go to vitest (a file filter, -t "name"). Ends with one summary line:
// "tests: N passed, N failed", after the name of every failed test (the tail of a long log is
// often all a reader sees).
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
const failures = [];
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
    for (const file of summary.testResults ?? []) {
      const where = path.relative(process.cwd(), file.name);
      const failedTests = (file.assertionResults ?? []).filter((test) => test.status === 'failed');
      for (const test of failedTests) {
        const reason = (test.failureMessages?.[0] ?? '').split('\n')[0].slice(0, 300);
        failures.push(`${run.name}: ${where} > ${test.fullName}\n    ${reason}`);
      }
      // A file that fails before its tests run (an import, a hook) has no failed test to name.
      if (file.status === 'failed' && failedTests.length === 0) {
        failures.push(`${run.name}: ${where} (${(file.message ?? 'failed').split('\n')[0]})`);
      }
    }
    if (summary.numTotalTests === 0) exitCode = exitCode || 1;
  } else {
    exitCode = exitCode || 1;
  }
}
if (failures.length > 0) process.stdout.write(`\nfailed:\n${failures.map((line) => `  ${line}`).join('\n')}\n`);
process.stdout.write(`\ntests: ${passed} passed, ${failed} failed\n`);
process.exit(exitCode);
