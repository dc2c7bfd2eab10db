// A change reaches every instance's assistant within 2 s without a restart: two server processes on
// the database of the run (PostgreSQL: LISTEN/NOTIFY; SQLite: the change-log poll); an article
// published, edited and archived through one instance, and one imported by the CLI, are seen by
// the other instance's chat and help-centre search.
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

const DEADLINE_MS = 2_000;

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

/** Milliseconds until the condition holds on the second instance (fails after the deadline plus a margin). */
async function timeUntil(condition: () => Promise<boolean>): Promise<number> {
  const started = performance.now();
  while (!(await condition())) {
    if (performance.now() - started > DEADLINE_MS * 3) throw new Error('the second instance never saw the change');
    await new Promise((r) => setTimeout(r, 50));
  }
  return performance.now() - started;
}

describe('an edit on one instance', () => {
  it("reaches the other instance's assistant within 2 s: publish, edit, archive", async () => {
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
    const published = await timeUntil(async () =>
      (await foundOnSecond('saffron greenhouse')).includes('farming.saffron-greenhouse'),
    );
    expect(published).toBeLessThan(DEADLINE_MS);
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
    const edited = await timeUntil(async () =>
      (await foundOnSecond('pistachio orchard')).includes('farming.saffron-greenhouse'),
    );
    expect(edited).toBeLessThan(DEADLINE_MS);

    await first.call('POST', `/api/admin/kb/articles/${id}/archive`, { auth: staff, body: {} });
    const archived = await timeUntil(
      async () => !(await foundOnSecond('saffron greenhouse')).includes('farming.saffron-greenhouse'),
    );
    expect(archived).toBeLessThan(DEADLINE_MS);
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
      const seen = await timeUntil(async () => (await foundOnSecond('beehives')).includes('farming.beehives'));
      expect(seen).toBeLessThan(DEADLINE_MS);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
