// The staff console's files under /console: the single page (index.html, revalidated on every
// load) for /console/ and each of its client routes, and the bundled assets under
// /console/assets/<name>.<hash>.js|css, cached for a year as immutable (a new build has new names).
// They are built by `npm run build` into dist/console (scripts/build-console.mjs) and read into
// memory when the app starts; the gzip copy is sent to a client that accepts it. Every answer here
// carries the console's own strict Content-Security-Policy: no inline script or style, nothing from
// another origin.
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { projectRoot } from '../paths.js';

export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' blob: data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

const IMMUTABLE = 'public, max-age=31536000, immutable';
/**
 * Instead of the platform's no-referrer: with no-referrer, Chromium sends `Origin: null` on the
 * page's own POST and PUT requests, and the service refuses a state change whose Origin is not its
 * own. same-origin still sends nothing to any other site.
 */
const REFERRER_POLICY = 'same-origin';
const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

interface Asset {
  type: string;
  bytes: Buffer;
  gzip: Buffer | undefined;
}

interface ConsoleBuild {
  index: Buffer;
  indexEtag: string;
  assets: Map<string, Asset>;
}

/** Reads a build from dir (dist/console); undefined when there is none. */
export function loadConsoleBuild(dir: string): ConsoleBuild | undefined {
  const manifestFile = path.join(dir, 'manifest.json');
  if (!fs.existsSync(manifestFile)) return undefined;
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as {
    files: { name: string }[];
    index_etag: string;
  };
  const assets = new Map<string, Asset>();
  for (const { name } of manifest.files) {
    const file = path.join(dir, 'assets', name);
    const gz = `${file}.gz`;
    assets.set(name, {
      type: TYPES[path.extname(name)] ?? 'application/octet-stream',
      bytes: fs.readFileSync(file),
      gzip: fs.existsSync(gz) ? fs.readFileSync(gz) : undefined,
    });
  }
  return { index: fs.readFileSync(path.join(dir, 'index.html')), indexEtag: manifest.index_etag, assets };
}

function acceptsGzip(req: FastifyRequest): boolean {
  const header = req.headers['accept-encoding'];
  return typeof header === 'string' && /\bgzip\b(?!\s*;\s*q=0(?:\.0{0,3})?(?![.\d]))/.test(header);
}

function sendAsset(req: FastifyRequest, reply: FastifyReply, asset: Asset) {
  reply.header('content-type', asset.type).header('cache-control', IMMUTABLE).header('vary', 'Accept-Encoding');
  if (asset.gzip && acceptsGzip(req)) return reply.header('content-encoding', 'gzip').send(asset.gzip);
  return reply.send(asset.bytes);
}

export default fp(
  async (app, options: { dir?: string }) => {
    const build = loadConsoleBuild(options.dir ?? path.join(projectRoot, 'dist', 'console'));
    const common = { schema: { hide: true } } as const;

    const page = (req: FastifyRequest, reply: FastifyReply) => {
      reply.header('content-security-policy', CONSOLE_CSP).header('referrer-policy', REFERRER_POLICY);
      if (!build)
        return reply
          .code(503)
          .header('cache-control', 'no-store')
          .send({ message: 'The console is not built: run npm run build.' });
      reply.header('cache-control', 'no-cache').header('etag', build.indexEtag);
      if (req.headers['if-none-match'] === build.indexEtag) return reply.code(304).send();
      return reply.header('content-type', 'text/html; charset=utf-8').send(build.index);
    };

    // With the router's ignoreTrailingSlash this is /console and /console/ alike.
    app.get('/console', common, page);
    app.get<{ Params: { '*': string } }>('/console/*', common, (req, reply) => {
      const rest = req.params['*'];
      if (!rest.startsWith('assets/')) return page(req, reply);
      reply.header('content-security-policy', CONSOLE_CSP);
      const asset = build?.assets.get(rest.slice('assets/'.length));
      if (!asset) return reply.code(404).header('cache-control', 'no-store').send({ message: 'Not found.' });
      return sendAsset(req, reply, asset);
    });
  },
  { name: 'console-assets' },
);
