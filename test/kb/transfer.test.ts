// kb:import and kb:export run as operators run them (the CLI as a child process) on the database of
// the run: the bundled Markdown imported, an export read back changes nothing (no revision, no
// change logged, the same files again), an edited file updates one article, and a malformed file
// is refused with its name, line and reason while nothing is written.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_KNOWLEDGE_DIR } from '../../src/modules/assistant/knowledge.js';
import { createArticle } from '../../src/modules/kb/service.js';
import { createCategory } from '../../src/modules/kb/taxonomy.js';
import { createTestDatabase, type TestDatabase } from '../helpers/app.js';
import { runCli } from '../helpers/process.js';

// Child processes (servers, the CLI through tsx) are slow on a loaded machine.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 240_000 });

let database: TestDatabase;
let scratch: string;

beforeAll(async () => {
  database = await createTestDatabase();
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'kb-transfer-'));
}, 60_000);

afterAll(async () => {
  await database?.destroy();
  fs.rmSync(scratch, { recursive: true, force: true });
});

const cli = (...args: string[]) => runCli(args, database.env);
const count = async (table: 'kb_revisions' | 'kb_changes' | 'kb_articles') =>
  Number(
    (
      await database.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
const folder = (name: string) => path.join(scratch, name);
const filesOf = (dir: string) =>
  Object.fromEntries(
    fs
      .readdirSync(dir)
      .sort()
      .map((f) => [f, fs.readFileSync(path.join(dir, f), 'utf8')]),
  );

describe('kb:import and kb:export', () => {
  it('imports the bundled Markdown as published articles and says what it changed', async () => {
    const result = await cli('kb:import', DEFAULT_KNOWLEDGE_DIR);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      files: 14,
      created: 84,
      updated: 0,
      unchanged: 0,
      categories_created: 7,
      categories_updated: 7,
    });
    const again = await cli('kb:import', DEFAULT_KNOWLEDGE_DIR);
    expect(JSON.parse(again.stdout)).toMatchObject({
      created: 0,
      updated: 0,
      unchanged: 84,
      categories_created: 0,
      categories_updated: 0,
    });
  });

  it('reads its own export back without changing anything, drafts, tags, slugs and the tree included', async () => {
    const garden = await createCategory(database.db, {
      slug: 'garden',
      name_en: 'Garden',
      name_fa: 'باغ',
      position: 3,
    });
    await createCategory(database.db, { slug: 'cacti', name_en: 'Cacti', name_fa: 'کاکتوس', parent_id: garden.id });
    await createArticle(database.db, null, {
      key: 'garden.cactus-water',
      lang: 'fa',
      slug: 'ab-dadan',
      title: 'کاکتوس را کی آب بدهم؟',
      body: 'ماهی یک بار.\n\n### تابستان\nبیشتر.',
      questions: ['آب کاکتوس', 'هر چند وقت'],
      pages: ['garden', '/garden/:id'],
      next: ['garden.cactus-soil', 'misc.loose'],
      tags: ['plants', 'cactus'],
      category: 'cacti',
      status: 'draft',
    });
    await createArticle(database.db, null, {
      key: 'misc.loose',
      lang: 'en',
      slug: 'misc-loose',
      title: 'Loose?',
      body: 'No category.',
    });
    const first = await cli('kb:export', folder('one'));
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toEqual({ folder: folder('one'), files: 17 });
    const before = { revisions: await count('kb_revisions'), changes: await count('kb_changes') };
    const imported = await cli('kb:import', folder('one'));
    expect(JSON.parse(imported.stdout)).toEqual({
      files: 16,
      created: 0,
      updated: 0,
      unchanged: 86,
      categories_created: 0,
      categories_updated: 0,
    });
    expect({ revisions: await count('kb_revisions'), changes: await count('kb_changes') }).toEqual(before);
    await cli('kb:export', folder('two'));
    expect(filesOf(folder('two'))).toEqual(filesOf(folder('one')));
    expect(filesOf(folder('one'))['cacti.fa.md']).toContain('<!-- status: draft -->');
    expect(filesOf(folder('one'))['cacti.fa.md']).toContain('<!-- next: garden.cactus-soil, misc.loose -->');
    expect(filesOf(folder('one'))['investing.en.md']).toContain('<!-- next: payments.refund-time -->');
  });

  it('updates the one article whose file changed, as a new revision', async () => {
    const dir = folder('one');
    const file = path.join(dir, 'payments.en.md');
    fs.writeFileSync(
      file,
      fs
        .readFileSync(file, 'utf8')
        .replace(
          '<!-- also: refund working days -->',
          '<!-- also: refund working days -->\n<!-- also: refund business days -->',
        ),
    );
    const before = await count('kb_revisions');
    const result = await cli('kb:import', dir);
    expect(JSON.parse(result.stdout)).toMatchObject({ created: 0, updated: 1, unchanged: 85 });
    expect(await count('kb_revisions')).toBe(before + 1);
  });

  it('refuses a malformed file with its name, line and reason, and writes nothing', async () => {
    const dir = folder('bad');
    fs.cpSync(folder('one'), dir, { recursive: true });
    fs.writeFileSync(
      path.join(dir, 'new.en.md'),
      '# New\n\n## A fine article\n<!-- id: new.fine -->\nText.\n\n## Without an id\nText.\n',
    );
    const before = { articles: await count('kb_articles'), revisions: await count('kb_revisions') };
    const result = await cli('kb:import', dir);
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(
      'error: nothing imported: new.en.md:7: the article "Without an id" needs an id line such as <!-- id: new.some-slug --> under its heading',
    );
    fs.writeFileSync(
      path.join(dir, 'new.en.md'),
      '# New\n\n## Twice\n<!-- id: new.twice -->\n<!-- status: draft -->\n<!-- status: published -->\nText.\n',
    );
    expect((await cli('kb:import', dir)).stderr.trim()).toBe(
      'error: nothing imported: new.en.md:6: a second status line; give it once',
    );
    fs.writeFileSync(
      path.join(dir, 'new.en.md'),
      '# New\n\n## Bad tag\n<!-- id: new.tag -->\n<!-- tags: Not Fine -->\nText.\n',
    );
    expect((await cli('kb:import', dir)).stderr.trim()).toBe(
      'error: nothing imported: new.en.md:5: the tag "Not Fine" must be lower-case letters, digits and dashes',
    );
    fs.writeFileSync(
      path.join(dir, 'new.en.md'),
      '# New\n\n## Bad step\n<!-- id: new.step -->\n<!-- next: payments.refund-time, Refund Time -->\nText.\n',
    );
    expect((await cli('kb:import', dir)).stderr.trim()).toBe(
      'error: nothing imported: new.en.md:5: the next step "Refund Time" must be an article\'s id, such as payments.refund-time',
    );
    expect({ articles: await count('kb_articles'), revisions: await count('kb_revisions') }).toEqual(before);
    const usage = await cli('kb:import');
    expect(usage.code).toBe(2);
    expect(usage.stderr).toBe('error: --dir is required\n');
  });
});
