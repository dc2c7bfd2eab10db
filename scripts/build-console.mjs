// Builds the staff console (console/src) into <outDir>: assets/<name>.<hash>.js|css bundled and
// minified by esbuild (content-hashed, so the service caches them for a year), a .gz beside each
// (the service sends it to clients that accept gzip), index.html naming them, and manifest.json
// (the files and their sizes, read by the service at start and by the console benchmark).
// scripts/build.mjs calls it after compiling src/; it needs the dev dependencies (esbuild, preact).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const consoleSources = path.join(root, 'console', 'src');

function indexHtml(script, style) {
  // No inline script or style: the console's Content-Security-Policy allows neither.
  return `<!doctype html>
<html lang="en" dir="ltr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>Support console</title>
<link rel="stylesheet" href="/console/assets/${style}">
<script type="module" src="/console/assets/${script}"></script>
</head>
<body>
<div id="app"></div>
<noscript>The support console needs JavaScript.</noscript>
</body>
</html>
`;
}

/** Bundles the console into outDir (created); returns the manifest it wrote. */
export async function buildConsole(outDir) {
  const esbuild = await import('esbuild');
  const assets = path.join(outDir, 'assets');
  fs.mkdirSync(assets, { recursive: true });
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: { main: path.join(consoleSources, 'main.tsx') },
    bundle: true,
    minify: true,
    format: 'esm',
    target: ['es2022', 'chrome110', 'firefox110', 'safari16'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    outdir: assets,
    entryNames: '[name].[hash]',
    assetNames: '[name].[hash]',
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  const files = Object.keys(result.metafile.outputs).map((file) => path.basename(file));
  const script = files.find((f) => f.endsWith('.js'));
  const style = files.find((f) => f.endsWith('.css'));
  if (!script || !style) throw new Error(`the console build made no script or no style sheet: ${files.join(', ')}`);
  const manifest = { script, style, files: [] };
  for (const name of files) {
    const bytes = fs.readFileSync(path.join(assets, name));
    const gzipped = zlib.gzipSync(bytes, { level: 9 });
    fs.writeFileSync(path.join(assets, `${name}.gz`), gzipped);
    manifest.files.push({ name, bytes: bytes.length, gzip_bytes: gzipped.length });
  }
  const html = indexHtml(script, style);
  fs.writeFileSync(path.join(outDir, 'index.html'), html);
  manifest.index_etag = `"${crypto.createHash('sha256').update(html).digest('base64url').slice(0, 22)}"`;
  fs.writeFileSync(path.join(outDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

// Run directly (node scripts/build-console.mjs [outDir]): builds into dist/console or outDir.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outDir = path.resolve(process.argv[2] ?? path.join(root, 'dist', 'console'));
  fs.rmSync(outDir, { recursive: true, force: true });
  const manifest = await buildConsole(outDir);
  process.stderr.write(
    `console built: ${manifest.files.map((f) => `${f.name} ${f.gzip_bytes} B gzipped`).join(', ')}\n`,
  );
}
