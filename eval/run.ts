// npm run eval -- <name> [args]: runs eval/<name>.ts, whose default export does the work.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const available = fs
  .readdirSync(here)
  .filter((f) => f.endsWith('.ts') && f !== 'run.ts')
  .map((f) => f.replace(/\.ts$/, ''))
  .sort();

const [name, ...args] = process.argv.slice(2);
if (!name || !available.includes(name)) {
  process.stderr.write(`usage: npm run eval -- <${available.join('|')}> [options]\n`);
  process.exit(name ? 2 : 0);
}
const module = (await import(pathToFileURL(path.join(here, `${name}.ts`)).href)) as {
  default: (args: string[]) => Promise<number>;
};
process.exit(await module.default(args));
