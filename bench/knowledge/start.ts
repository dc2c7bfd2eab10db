// The start of an instance on a store of the knowledge benchmark's size, from spawn to /health:
//   npx tsx bench/knowledge/start.ts --store DIR [--fill] [--rounds N] [--project DIR]...
//                                    [--articles N] [--documents D] [--pages P] [--warm]
// --fill first makes the store in DIR (a SQLite DATA_DIR; DIR must not exist yet): N generated
// articles per language written as an editor's would be, and D generated PDFs of P pages uploaded
// to a server of this checkout and read by its extraction worker, as `npm run bench -- knowledge`
// does (defaults 2,000, 50, 100). Without --fill, DIR holds a store made so.
// With DATABASE_URL set (postgres://...), --fill makes the store in a new schema of that database,
// kept after the run: DIR then holds the DATA_DIR and postgres.json naming the schema, and each start
// reads that schema (a start only reads the store, so the schema is not copied).
// Each round then starts, in turn, `node <npm start's node flags> dist/server.js` of each project
// (this checkout when no --project is given; `npm run build` in each first) on a fresh copy of the
// store, pinned to core 0 when taskset is there, and polls /health every 20 ms. Starts of two
// checkouts alternate round by round, so a machine that slows down meanwhile slows both. Prints
// every start, then per project the min-max and the server's CPU time at /health.
// --warm: each measured start is the second on its copy: a first start, not measured, runs until
// it has kept its index in the copy's DATA_DIR (knowledge-index.bin), so the measured one reads it
// instead of building (a checkout that keeps no index is stopped once /health answers, and builds).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { scratchDatabase } from '../../harness/database.js';
import { freePort } from '../../harness/ports.js';
import { launchServer, projectRoot } from '../../harness/server.js';
import { userWithToken } from '../../harness/users.js';
import { processCpuMicros } from '../lib/proc.js';
import { serverCores, startFlags } from '../lib/server.js';
import { generatedDocuments, SIZE_OPTIONS, sizeOf } from './corpus.js';
import { uploadDocuments, writeGeneratedArticles } from './store.js';

const { values } = parseArgs({
  options: {
    ...SIZE_OPTIONS,
    store: { type: 'string' },
    fill: { type: 'boolean' },
    rounds: { type: 'string' },
    project: { type: 'string', multiple: true },
    warm: { type: 'boolean' },
  },
});
const out = (line: string) => process.stdout.write(`${line}\n`);
const fail = (message: string): never => {
  process.stderr.write(`${message}\n`);
  process.exit(2);
};

if (!values.store) fail('--store DIR is required (with --fill to make the store there)');
const store = path.resolve(values.store!);
const rounds = Number(values.rounds ?? 3);
if (!Number.isInteger(rounds) || rounds < 1) fail('--rounds must be a whole number of at least 1');
const projects = (values.project ?? [projectRoot]).map((dir) => path.resolve(dir));
for (const dir of projects)
  if (!fs.existsSync(path.join(dir, 'dist', 'server.js')))
    fail(`${dir} has no dist/server.js: run npm run build there`);

/** Where a PostgreSQL store's schema is named, in the store's folder. */
const PG_FILE = 'postgres.json';

/** Fills a new store in `store`: the articles through this process's connection, the PDFs through a server. */
async function fill(): Promise<void> {
  if (fs.existsSync(store)) fail(`${store} exists already: --fill makes a new store`);
  const size = sizeOf(values);
  const url = process.env.DATABASE_URL || undefined;
  const scratch = await scratchDatabase({ dialect: url ? 'postgres' : 'sqlite', url, label: 'kbstart' });
  try {
    const server = await launchServer({ entry: 'built', env: scratch.env, output: 'stderr', timeoutMs: 120_000 });
    try {
      const admin = await userWithToken(scratch.handle.db, { admin: true, email: 'editor@bench.local' });
      let started = performance.now();
      await writeGeneratedArticles(scratch.handle.db, size.perLanguage);
      out(
        `${size.perLanguage} articles per language written in ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
      started = performance.now();
      const uploaded = await uploadDocuments(server.url, admin.auth, generatedDocuments(size.documents, size.pages));
      out(`${size.documents} PDFs (${uploaded.pages} pages) uploaded and read in ${(uploaded.ms / 1000).toFixed(1)} s`);
    } finally {
      await server.stop();
    }
    if (scratch.schema) {
      // The schema stays: the starts read it.
      await scratch.handle.close();
      fs.cpSync(scratch.dataDir, store, { recursive: true });
      fs.writeFileSync(path.join(store, PG_FILE), JSON.stringify({ url, schema: scratch.schema }));
      fs.rmSync(scratch.dataDir, { recursive: true, force: true });
      out(`store kept in ${store} and the schema ${scratch.schema} of ${url}`);
      return;
    }
    await scratch.handle.db.destroy();
    fs.cpSync(scratch.dataDir, store, { recursive: true });
  } catch (error) {
    await scratch.destroy();
    throw error;
  }
  await scratch.destroy();
}

/** The environment naming a PostgreSQL store's schema, or SQLite's (the file in DATA_DIR). */
function databaseEnv(): Record<string, string> {
  const file = path.join(store, PG_FILE);
  if (!fs.existsSync(file)) return { DATABASE_URL: '' };
  const { url, schema } = JSON.parse(fs.readFileSync(file, 'utf8')) as { url: string; schema: string };
  return { DATABASE_URL: url, PGOPTIONS: `-c search_path=${schema}` };
}

/** The file a start keeps its index in (src/modules/kb/index-snapshot.ts), in its DATA_DIR. */
const KEPT_INDEX = 'knowledge-index.bin';

/** A project's built server started on a DATA_DIR, once /health answers. */
async function launch(dir: string, data: string) {
  // From the spawn to /health, asked every 20 ms (the launcher's readyMs).
  const port = await freePort();
  return launchServer({
    command: [...serverCores(), process.execPath, ...startFlags(dir), path.join(dir, 'dist', 'server.js')],
    cwd: dir,
    env: { DATA_DIR: data, NODE_ENV: 'production', ...databaseEnv() },
    port,
    pollMs: 20,
    output: 'stderr',
    timeoutMs: 120_000,
  });
}

/** --warm: a start, not measured, on the copy, stopped (SIGTERM) as a restart would; it keeps its index there as it closes. */
async function warmUp(dir: string, data: string): Promise<void> {
  const server = await launch(dir, data);
  await server.stop(60_000);
  const keeps = fs.existsSync(path.join(dir, 'src', 'modules', 'kb', 'index-snapshot.ts'));
  if (keeps && !fs.existsSync(path.join(data, KEPT_INDEX))) fail(`${dir} kept no index as it closed`);
}

/** One start of a project's built server on a copy of the store: ms to /health, and its CPU ms by then. */
async function startOnce(dir: string): Promise<{ ms: number; cpuMs: number }> {
  const data = fs.mkdtempSync(path.join(os.tmpdir(), 'platform-start-'));
  fs.cpSync(store, data, { recursive: true });
  // A kept index of the store's folder itself is not the copy's to read (--warm makes its own).
  fs.rmSync(path.join(data, KEPT_INDEX), { force: true });
  if (values.warm) await warmUp(dir, data);
  const server = await launch(dir, data);
  try {
    return { ms: server.readyMs, cpuMs: processCpuMicros(server.pid) / 1000 };
  } finally {
    await server.stop();
    fs.rmSync(data, { recursive: true, force: true });
  }
}

if (values.fill) await fill();
else if (!fs.existsSync(path.join(store, 'platform.sqlite')) && !fs.existsSync(path.join(store, PG_FILE)))
  fail(`${store} holds no store: make one with --fill`);
const figures = new Map(projects.map((dir) => [dir, [] as Array<{ ms: number; cpuMs: number }>]));
for (let round = 1; round <= rounds; round += 1)
  for (const dir of projects) {
    const figure = await startOnce(dir);
    figures.get(dir)!.push(figure);
    out(
      `round ${round}, ${dir}${values.warm ? ' (warm)' : ''}: /health after ${figure.ms.toFixed(0)} ms, ${figure.cpuMs.toFixed(0)} ms of server CPU`,
    );
  }
const range = (numbers: number[]) => `${Math.min(...numbers).toFixed(0)}–${Math.max(...numbers).toFixed(0)} ms`;
for (const [dir, list] of figures)
  out(
    `${dir}: /health ${range(list.map((f) => f.ms))}, server CPU ${range(list.map((f) => f.cpuMs))} over ${list.length} starts (target < 2 s)`,
  );
