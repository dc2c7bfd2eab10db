// Two server processes on one database: a document uploaded through one is cited by the other's
// chat without a restart (each instance looks for changed documents every 2 s), and deleted
// through the first, it leaves the second's answers. How soon is a speed figure for the benchmarks
// (`npm run bench -- knowledge`), not a bound here: on a loaded machine a request alone can be slow.
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { launchServer, type ServerProcess } from '../../harness/server.js';
import { textPdf } from './documents.js';
import { DocumentServer } from './server.js';

const s = new DocumentServer();
let second: ServerProcess;
beforeAll(async () => {
  await s.start();
  second = await launchServer({ entry: 'built', env: { ...s.database.env, RATE_LIMIT_PER_MINUTE: '0' } });
}, 180_000);
afterAll(async () => {
  await second?.stop();
  await s.stop();
});

const QUESTION = 'How long is the wind turbine blade guarantee?';

async function citedBySecond(): Promise<string[]> {
  const res = await fetch(`${second.url}/api/assistant/chat`, {
    method: 'POST',
    headers: { ...s.member.auth, 'content-type': 'application/json' },
    body: JSON.stringify({ message: QUESTION }),
  });
  const body = (await res.json()) as { sources: Array<{ id: string }> };
  return body.sources.map((x) => x.id).filter((id) => id.startsWith('file-'));
}

/** How long the second instance may take to follow before the test fails: far beyond its 2 s look. */
const WAIT_MS = 30_000;
vi.setConfig({ testTimeout: 3 * WAIT_MS });

/** Waits until the second instance's answers satisfy the condition; fails after WAIT_MS. */
async function until(condition: (ids: string[]) => boolean): Promise<void> {
  const started = Date.now();
  while (!condition(await citedBySecond())) {
    if (Date.now() - started > WAIT_MS) throw new Error(`the second instance did not follow within ${WAIT_MS} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

it('follows an upload and a delete made on the other instance', async () => {
  const file = await s.uploaded(
    'wind.pdf',
    textPdf([['Wind turbine blade guarantee', 'The wind turbine blade guarantee lasts eight years.']]),
    [['title', 'Wind handbook']],
  );
  expect(file.status).toBe('ready');
  await until((ids) => ids.includes(`file-${file.id}.1`));
  await s.call('DELETE', `/api/admin/kb/files/${file.id}`, { auth: s.admin.auth });
  await until((ids) => ids.length === 0);
});
