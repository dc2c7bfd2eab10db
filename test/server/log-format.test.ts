// LOG_FORMAT: JSON lines by default (production), readable lines through pino-pretty with
// LOG_FORMAT=pretty (what npm run dev sets). A real server process.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/app.js';
import { launchServer } from '../../harness/server.js';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.destroy());

async function startupOutput(format: 'json' | 'pretty'): Promise<string> {
  const server = await launchServer({ env: { ...database.env, LOG_LEVEL: 'info', LOG_FORMAT: format } });
  await fetch(`${server.url}/api/provinces`);
  await new Promise((r) => setTimeout(r, 300));
  await server.stop();
  return server.output();
}

it('logs JSON lines by default and readable lines with LOG_FORMAT=pretty', async () => {
  const json = (await startupOutput('json')).split('\n').filter((l) => l.startsWith('{'));
  expect(json.length).toBeGreaterThan(0);
  expect(JSON.parse(json[0]!)).toMatchObject({ level: 30 });
  const pretty = await startupOutput('pretty');
  expect(pretty).toMatch(/\[\d\d:\d\d:\d\d\.\d{3}\] INFO.*: /);
  expect(pretty.split('\n').filter((l) => l.startsWith('{"level"'))).toEqual([]);
}, 120_000);
