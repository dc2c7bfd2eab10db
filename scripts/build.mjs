// Compiles src/ to dist/. With --if-stale it does nothing when dist/ is newer than every source
// file, so `npm start` does not compile on every start. --quiet prints nothing when up to date.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const stamp = path.join(root, 'dist', '.build-stamp');
const args = new Set(process.argv.slice(2));

function newestMtime(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : fs.statSync(full).mtimeMs);
  }
  return newest;
}

function upToDate() {
  if (!fs.existsSync(stamp)) return false;
  const built = fs.statSync(stamp).mtimeMs;
  const inputs = [path.join(root, 'tsconfig.json'), path.join(root, 'tsconfig.build.json'), path.join(root, 'package.json')];
  return newestMtime(path.join(root, 'src')) <= built && inputs.every((f) => fs.statSync(f).mtimeMs <= built);
}

if (args.has('--if-stale') && upToDate()) process.exit(0);
if (!args.has('--quiet')) process.stderr.write('building dist/ from src/ ...\n');
fs.rmSync(path.join(root, 'dist'), { recursive: true, force: true });
const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const result = spawnSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
if (result.status !== 0) {
  process.stderr.write('build failed: see the TypeScript errors above\n');
  process.exit(result.status ?? 1);
}
fs.writeFileSync(stamp, new Date().toISOString());
