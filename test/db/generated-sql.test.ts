// The SQL of every compiled statement is checked in under src/db/sql/ for both dialects, so a
// reviewer reads it; this fails when a statement changed and the files were not regenerated.
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { generateSql, SQL_DIR } from '../../scripts/sql.js';

it('has the checked-in SQL of every compiled statement up to date (else: npm run sql)', async () => {
  const files = await generateSql();
  expect(Object.keys(files).sort()).toEqual(['postgres.sql', 'sqlite.sql']);
  for (const [file, text] of Object.entries(files)) {
    const checkedIn = path.join(SQL_DIR, file);
    const stale = !fs.existsSync(checkedIn) || fs.readFileSync(checkedIn, 'utf8') !== text;
    expect(stale, `src/db/sql/${file} is stale: run npm run sql`).toBe(false);
  }
  // Every compiled statement of the tickets, notifications and users repositories is in it.
  for (const name of [
    'tickets.listPage',
    'tickets.ownedById',
    'notifications.unreadPage',
    'users.tokenWithUser',
    'answerVersions.versionOf',
  ]) {
    expect(files['sqlite.sql']).toContain(`-- ${name}`);
  }
});
