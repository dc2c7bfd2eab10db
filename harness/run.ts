// The runner of the benchmarks and the evaluation: `npm run bench -- <name> [args]` and
// `npm run eval -- <name> [args]` come here as `tsx harness/run.ts <bench|eval> <name> [args]`.
// It runs <folder>/<name>.ts, whose default export takes the remaining arguments and may resolve
// with an exit code (nothing means 0). Every .ts file at the top of the folder is a runnable
// name; the parts they share live in subfolders (bench/lib/, bench/load/, eval/assistant/).
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { projectRoot } from './server.js';

const FOLDERS = ['bench', 'eval'] as const;

const [folder, name, ...args] = process.argv.slice(2);
if (!FOLDERS.includes(folder as (typeof FOLDERS)[number])) {
  process.stderr.write(`usage: tsx harness/run.ts <${FOLDERS.join('|')}> <name> [options]\n`);
  process.exit(2);
}
const dir = path.join(projectRoot, folder!);
const available = fs
  .readdirSync(dir, { withFileTypes: true })
  .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
  .map((entry) => entry.name.replace(/\.ts$/, ''))
  .sort();
if (!name || !available.includes(name)) {
  process.stderr.write(`usage: npm run ${folder} -- <${available.join('|')}> [options]\n`);
  process.exit(name ? 2 : 0);
}
const module = (await import(pathToFileURL(path.join(dir, `${name}.ts`)).href)) as {
  default: (args: string[]) => Promise<unknown>;
};
const code = await module.default(args);
process.exit(typeof code === 'number' ? code : 0);
