// Two server processes on one database: a document uploaded through one is cited by the other's
// chat within a few seconds (each instance looks for changed documents every 2 s), and deleted
// through the first, it leaves the second's answers as quickly.
import { afterAll, beforeAll, expect, it } from 'vitest';
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

/** How long until the second instance's answers satisfy the condition (throws after 10 s). */
async function secondsUntil(condition: (ids: string[]) => boolean): Promise<number> {
  const started = Date.now();
  while (!condition(await citedBySecond())) {
    if (Date.now() - started > 10_000) throw new Error('the second instance did not follow within 10 s');
    await new Promise((r) => setTimeout(r, 200));
  }
  return (Date.now() - started) / 1000;
}

it('follows an upload and a delete made on the other instance within seconds', async () => {
  const file = await s.uploaded(
    'wind.pdf',
    textPdf([['Wind turbine blade guarantee', 'The wind turbine blade guarantee lasts eight years.']]),
    [['title', 'Wind handbook']],
  );
  expect(file.status).toBe('ready');
  expect(await secondsUntil((ids) => ids.includes(`file-${file.id}.1`))).toBeLessThan(5);
  await s.call('DELETE', `/api/admin/kb/files/${file.id}`, { auth: s.admin.auth });
  expect(await secondsUntil((ids) => ids.length === 0)).toBeLessThan(5);
});
