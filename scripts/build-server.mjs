// Bundles the service for start-up: src/server.ts, src/cli.ts and every migration become entry
// points of one esbuild build with code splitting, so what they share (the application and the
// pure-JavaScript dependencies) is loaded once, from a few large files instead of about two
// thousand small modules: Node's ES module loader pays for each file it resolves and reads
// (docs/performance.md, "Startup"). The type check is not part of this: `npm run typecheck`.
//
// Entry points keep their place under dist/ (dist/server.js, dist/cli.js, dist/db/migrations/…,
// the document reader's worker dist/modules/kb-files/extract-worker.js);
// the shared chunks sit at the top of dist/ beside server.js, so a module's import.meta.url is one
// level below the project in src/ and dist/ alike (src/paths.ts relies on it).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Left to node_modules at run time: native code (better-sqlite3), packages that find files or
 * worker scripts beside their own source (pino's transports, the OpenAPI plugins' package.json and
 * static files, ioredis' error stacks), optional
 * ones that may be absent (pg-native), the S3 SDK, loaded only when STORAGE_URL names a bucket, and
 * the document readers (pdf.js loads its own files by path; both run in a worker thread only).
 */
export const externalPackages = [
  'better-sqlite3',
  'pino',
  'pino-pretty',
  'thread-stream',
  '@fastify/swagger',
  '@fastify/swagger-ui',
  'ioredis',
  '@aws-sdk/*',
  'pg-native',
  'pdfjs-dist',
  'mammoth',
];

/** CommonJS dependencies inside an ES module bundle still call require (for Node's own modules and the externals). */
const requireShim =
  "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);";

export async function bundleServer(outDir) {
  const esbuild = await import('esbuild');
  const src = path.join(root, 'src');
  const migrations = fs
    .readdirSync(path.join(src, 'db', 'migrations'))
    .filter((file) => /^\d{12}_[a-z0-9_]+\.ts$/.test(file))
    .map((file) => path.join(src, 'db', 'migrations', file));
  // Loaded by path in a worker thread (src/modules/kb-files/extraction.ts, src/db/checkpointer.ts).
  const workers = [
    path.join(src, 'modules', 'kb-files', 'extract-worker.ts'),
    path.join(src, 'db', 'checkpoint-worker.ts'),
  ];
  const result = await esbuild.build({
    entryPoints: [path.join(src, 'server.ts'), path.join(src, 'cli.ts'), ...workers, ...migrations],
    outdir: outDir,
    outbase: src,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: true,
    external: externalPackages,
    banner: { js: requireShim },
    logLevel: 'silent',
    metafile: true,
  });
  for (const warning of result.warnings) process.stderr.write(`esbuild: ${warning.text}\n`);
  return result.metafile;
}
