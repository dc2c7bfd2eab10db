// Builds dist/ from src/ (scripts/build-server.mjs: esbuild, about a second; the type check is
// `npm run typecheck`, apart) and the staff console. With --if-stale it does nothing when dist/ is
// newer than every source file, so `npm start` does not build on every start. In a production
// install (npm ci --omit=dev: no esbuild) it runs the dist/ shipped with the code, or says in one
// line that there is none. --quiet prints nothing when up to date.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildConsole, consoleSources } from './build-console.mjs';
import { bundleServer } from './build-server.mjs';

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
    path.join(root, 'scripts', 'build-server.mjs'),
  ];
  return (
    newestMtime(path.join(root, 'src')) <= built &&
    newestMtime(consoleSources) <= built &&
    inputs.every((f) => fs.statSync(f).mtimeMs <= built)
  );
}

if (args.has('--if-stale') && upToDate()) process.exit(0);
const esbuildInstalled = fs.existsSync(path.join(root, 'node_modules', 'esbuild', 'package.json'));
if (!esbuildInstalled) {
  // A production install (npm ci --omit=dev) has no build tools: it runs the dist/ it was given.
  if (fs.existsSync(path.join(root, 'dist', 'server.js'))) {
    if (!args.has('--quiet'))
      process.stderr.write(
        'esbuild is not installed (a production install): running the existing dist/, which may be older than src/\n',
      );
    process.exit(0);
  }
  process.stderr.write(
    'dist/ is missing and the build tools are not installed (npm ci --omit=dev): run npm run build where the dev dependencies are installed and ship dist/ with the code\n',
  );
  process.exit(1);
}
if (!args.has('--quiet')) process.stderr.write('building dist/ from src/ ...\n');
// Built beside dist/ and swapped in only when the build succeeded: a failed build leaves the
// previous dist/ in place.
const next = path.join(root, 'dist.next');
fs.rmSync(next, { recursive: true, force: true });
try {
  await bundleServer(next);
} catch (error) {
  fs.rmSync(next, { recursive: true, force: true });
  process.stderr.write(`build failed (dist/ left as it was): ${error.message}\n`);
  process.exit(1);
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
