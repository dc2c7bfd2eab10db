// Compiles src/ to dist/. With --if-stale it does nothing when dist/ is newer than every source
// file, so `npm start` does not compile on every start. In a production install (npm ci
// --omit=dev: no TypeScript) it runs the dist/ shipped with the code, or says in one line that
// there is none. --quiet prints nothing when up to date.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildConsole, consoleSources } from './build-console.mjs';

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
  const inputs = [
    path.join(root, 'tsconfig.json'),
    path.join(root, 'tsconfig.build.json'),
    path.join(root, 'package.json'),
    path.join(root, 'scripts', 'build-console.mjs'),
  ];
  return (
    newestMtime(path.join(root, 'src')) <= built &&
    newestMtime(consoleSources) <= built &&
    inputs.every((f) => fs.statSync(f).mtimeMs <= built)
  );
}

if (args.has('--if-stale') && upToDate()) process.exit(0);
const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
if (!fs.existsSync(tsc)) {
  // A production install (npm ci --omit=dev) has no compiler: it runs the dist/ it was given.
  if (fs.existsSync(path.join(root, 'dist', 'server.js'))) {
    if (!args.has('--quiet'))
      process.stderr.write(
        'TypeScript is not installed (a production install): running the existing dist/, which may be older than src/\n',
      );
    process.exit(0);
  }
  process.stderr.write(
    'dist/ is missing and TypeScript is not installed (npm ci --omit=dev): run npm run build where the dev dependencies are installed and ship dist/ with the code\n',
  );
  process.exit(1);
}
if (!args.has('--quiet')) process.stderr.write('building dist/ from src/ ...\n');
// Compiled beside dist/ and swapped in only when the compiler succeeded: a failed build leaves the
// previous dist/ in place.
const next = path.join(root, 'dist.next');
fs.rmSync(next, { recursive: true, force: true });
const result = spawnSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json'), '--outDir', next], {
  stdio: 'inherit',
});
if (result.status !== 0) {
  fs.rmSync(next, { recursive: true, force: true });
  process.stderr.write('build failed: see the TypeScript errors above (dist/ left as it was)\n');
  process.exit(result.status ?? 1);
}

// The staff console (console/src): its own step, bundled by esbuild into dist/console
// (scripts/build-console.mjs); a failure leaves the previous dist/ in place like a compile error.
try {
  await buildConsole(path.join(next, 'console'));
} catch (error) {
  fs.rmSync(next, { recursive: true, force: true });
  process.stderr.write(`console build failed (dist/ left as it was): ${error.message}\n`);
  process.exit(1);
}

fs.writeFileSync(path.join(next, '.build-stamp'), new Date().toISOString());
fs.rmSync(path.join(root, 'dist'), { recursive: true, force: true });
fs.renameSync(next, path.join(root, 'dist'));
