// Child process of the migration tests: waits until the given moment (ms since the epoch), then
// migrates the database of its environment and prints the names it applied as JSON. Several of
// these started together hit the database in the same millisecond or so.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadConfig } from '../../src/config.js';
import { createDatabase } from '../../src/db/index.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { projectRoot } from '../../harness/server.js';

const at = Number(process.argv[2]);
const database = createDatabase(loadConfig());
// Open the connection and load the migration files first (the module cache keeps them), so only
// the migration itself runs at the given moment.
await database.db.selectNoFrom((eb) => eb.val(1).as('one')).execute();
const folder = path.join(projectRoot, 'src', 'db', 'migrations');
for (const file of fs.readdirSync(folder).filter((f) => f.endsWith('.ts')))
  await import(pathToFileURL(path.join(folder, file)).href);
while (Date.now() < at) await new Promise((resolve) => setTimeout(resolve, Math.min(20, at - Date.now())));
try {
  process.stdout.write(JSON.stringify(await migrateToLatest(database.db)));
} catch (error) {
  process.stdout.write(JSON.stringify({ error: String(error) }));
  process.exitCode = 1;
} finally {
  await database.close();
}
