// A change reaches every instance's assistant without a restart: two server processes on the
// database of the run (PostgreSQL: LISTEN/NOTIFY; SQLite: the change-log poll); an article
// published, edited and archived through one instance, and one imported by the CLI, are seen by
// the other instance's chat and help-centre search. How soon (the target: within 2 s) is a speed
// figure, measured by `npm run bench -- knowledge` on a quiet machine, not here: on a loaded one a
// request alone can take longer. Here the change must arrive, within a wait far beyond the target.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { launchServer, type ServerProcess } from '../../harness/server.js';
import { userWithToken } from '../helpers/factories.js';
import { runCli } from '../helpers/process.js';
import { KbServer } from './helpers.js';

// Child processes (servers, the CLI through tsx) are slow on a loaded machine.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 240_000 });

/** How long a change may take to arrive before the test fails: far beyond the 2 s the bench measures. */
const WAIT_MS = 30_000;

let first: KbServer;
let second: ServerProcess;
let staff: Record<string, string>;
let member: Record<string, string>;

beforeAll(async () => {
  first = await KbServer.start();
  second = await launchServer({ env: { ...first.database.env, RATE_LIMIT_PER_MINUTE: '0' } });
  staff = (await userWithToken(first.database.db, { admin: true })).auth;
  member = (await userWithToken(first.database.db)).auth;
}, 180_000);

afterAll(async () => {
  if (second && second.child.exitCode === null) await second.stop();
  await first?.stop();
});

/** The keys the second instance's help-centre search finds. */
async function foundOnSecond(q: string, lang = 'en'): Promise<string[]> {
  const res = await fetch(`${second.url}/api/kb/articles?lang=${lang}&q=${encodeURIComponent(q)}`);
  return ((await res.json()) as { data: Array<{ key: string }> }).data.map((a) => a.key);
}

/** Waits until the condition holds on the second instance; fails after WAIT_MS. */
async function until(condition: () => Promise<boolean>): Promise<void> {
  const started = performance.now();
  while (!(await condition())) {
    if (performance.now() - started > WAIT_MS) throw new Error('the second instance never saw the change');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('an edit on one instance', () => {
  it("reaches the other instance's assistant without a restart: publish, edit, archive", async () => {
    const created = await first.call('POST', '/api/admin/kb/articles', {
      auth: staff,
      body: {
        key: 'farming.saffron-greenhouse',
        lang: 'en',
        slug: 'saffron-greenhouse',
        title: 'Can I raise money for a saffron greenhouse?',
        body: 'Yes: a saffron greenhouse is an agricultural project like any other.',
        questions: ['saffron farm funding'],
      },
    });
    expect(created.status).toBe(201);
    const id = created.body.data.id;
    // A draft is not indexed.
    await new Promise((r) => setTimeout(r, 1_000));
    expect(await foundOnSecond('saffron greenhouse')).not.toContain('farming.saffron-greenhouse');

    await first.call('POST', `/api/admin/kb/articles/${id}/publish`, { auth: staff, body: {} });
    await until(async () => (await foundOnSecond('saffron greenhouse')).includes('farming.saffron-greenhouse'));
    const chat = await fetch(`${second.url}/api/assistant/chat`, {
      method: 'POST',
      headers: { ...member, 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'Can I raise money for a saffron greenhouse?' }),
    });
    const answer = (await chat.json()) as { sources: Array<{ id: string; title: string }> };
    expect(answer.sources[0]).toEqual({
      id: 'farming.saffron-greenhouse',
      title: 'Can I raise money for a saffron greenhouse?',
    });

    await first.call('PUT', `/api/admin/kb/articles/${id}`, {
      auth: staff,
      body: { revision: 2, questions: ['pistachio orchard funding'] },
    });
    await until(async () => (await foundOnSecond('pistachio orchard')).includes('farming.saffron-greenhouse'));

    await first.call('POST', `/api/admin/kb/articles/${id}/archive`, { auth: staff, body: {} });
    await until(async () => !(await foundOnSecond('saffron greenhouse')).includes('farming.saffron-greenhouse'));
  });

  it('reaches it from the CLI too (another process writing the store)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kb-live-'));
    try {
      fs.writeFileSync(
        path.join(dir, 'farming.en.md'),
        '# Farming\n\n## Do you fund beehives?\n<!-- id: farming.beehives -->\n\nYes, beehive projects qualify.\n',
      );
      const result = await runCli(['kb:import', dir], first.database.env);
      expect(result.code, result.stderr).toBe(0);
      await until(async () => (await foundOnSecond('beehives')).includes('farming.beehives'));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
