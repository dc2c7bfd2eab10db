// How the service serves the console: the page for every client route (revalidated, with its
// strict CSP), the hashed assets (immutable, gzip when accepted), 404 for an unknown asset, 503
// while there is no build; and what the build holds: no inline script or style, the JavaScript
// budget, no markup-from-strings API anywhere in the console's source.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import consoleAssets, { CONSOLE_CSP } from '../../src/plugins/console-assets.js';
import { ensureBuilt, projectRoot } from '../../harness/server.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { filesUnder } from '../../harness/files.js';

const dist = path.join(projectRoot, 'dist', 'console');
let t: TestApp;
let manifest: { script: string; style: string; files: { name: string; gzip_bytes: number }[] };

beforeAll(async () => {
  ensureBuilt();
  manifest = JSON.parse(fs.readFileSync(path.join(dist, 'manifest.json'), 'utf8'));
  t = await buildTestApp();
}, 180_000);
afterAll(() => t?.close());

describe('the console page', () => {
  it.each(['/console', '/console/', '/console/tickets/12', '/console/reports?from=2026-01-01'])(
    'answers %s with the page, no-cache and the strict CSP',
    async (url) => {
      const res = await t.app.inject({ url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['content-security-policy']).toBe(CONSOLE_CSP);
      // no-referrer would make Chromium send Origin: null on the page's own changes.
      expect(res.headers['referrer-policy']).toBe('same-origin');
      expect(res.body).toContain(`/console/assets/${manifest.script}`);
    },
  );

  it('answers 304 to a revalidation with the same ETag', async () => {
    const first = await t.app.inject({ url: '/console/' });
    const again = await t.app.inject({ url: '/console/', headers: { 'if-none-match': String(first.headers.etag) } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('has no inline script, no inline style, nothing from another origin', () => {
    const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
    expect(html).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
    expect(html).not.toMatch(/<style|\sstyle=|\son\w+=/);
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
    expect(CONSOLE_CSP).not.toContain('unsafe');
  });
});

describe('the console assets', () => {
  it('sends a hashed asset immutable, gzipped when the client accepts it', async () => {
    const url = `/console/assets/${manifest.script}`;
    const plain = await t.app.inject({ url });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(plain.headers['content-encoding']).toBeUndefined();
    const gzipped = await t.app.inject({ url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gzipped.headers.vary).toBe('Accept-Encoding');
    expect(zlib.gunzipSync(gzipped.rawPayload).equals(plain.rawPayload)).toBe(true);
    const refused = await t.app.inject({ url, headers: { 'accept-encoding': 'gzip;q=0' } });
    expect(refused.headers['content-encoding']).toBeUndefined();
  });

  it('answers 404 for an asset that is not in the build', async () => {
    const res = await t.app.inject({ url: '/console/assets/main.NOTAHASH.js' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('keeps the JavaScript within the budget of 150 kB gzipped', () => {
    const js = manifest.files.filter((f) => f.name.endsWith('.js')).reduce((sum, f) => sum + f.gzip_bytes, 0);
    expect(js).toBeGreaterThan(0);
    expect(js).toBeLessThanOrEqual(150 * 1024);
  });

  it('answers 503 with a message when the console was never built', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'console-none-'));
    const app = Fastify();
    await app.register(consoleAssets, { dir: empty });
    const res = await app.inject({ url: '/console/' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ message: 'The console is not built: run npm run build.' });
    await app.close();
    fs.rmSync(empty, { recursive: true });
  });
});

it('renders nothing from strings as markup anywhere in the console source', () => {
  const files = filesUnder(path.join(projectRoot, 'console', 'src'), { keep: (name) => /\.tsx?$/.test(name) });
  expect(files.length).toBeGreaterThan(10);
  const forbidden =
    /dangerouslySetInnerHTML|innerHTML|outerHTML|insertAdjacentHTML|document\.write|\beval\(|new Function\(/;
  expect(files.filter((file) => forbidden.test(fs.readFileSync(file, 'utf8')))).toEqual([]);
});
