// The geographic endpoints: public, read-only, exempt from the platform rate limit, answered from
// the in-memory catalogue (catalog.ts) with ETag and Cache-Control.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { fieldError, ValidationError } from '../../core/errors.js';
import { etagMatches, type PreparedMatch } from '../../http/prepared-answers.js';
import { fieldMessage } from '../../core/fields.js';
import type { AppDeps } from '../../core/deps.js';
import { EMPTY_ARRAY, EMPTY_DATA, GeoCatalog, type CachedBody } from './catalog.js';
import { childrenKey, isChildLevel } from './keys.js';
import { loadBundledData } from './loader.js';
import { byParentSchema, ChildrenSchema, ContinentsSchema, ProvincesSchema } from './schemas.js';

export const CACHE_CONTROL = 'public, max-age=3600';
const VILLAGES_AFTER_LISTEN_MS = 1_000;

const catalogs = new WeakMap<AppDeps, GeoCatalog>();

/** The catalogue serving an app (tests use it to rebuild after changing rows). */
export function geoCatalogOf(app: { deps: AppDeps }): GeoCatalog {
  const catalog = catalogs.get(app.deps);
  if (!catalog) throw new Error('the geo routes are not registered on this app');
  return catalog;
}

// The body is sent as prepared bytes: no serialisation per request.
function sendCached(req: FastifyRequest, reply: FastifyReply, entry: CachedBody): void {
  reply.header('cache-control', CACHE_CONTROL).header('etag', entry.etag);
  if (etagMatches(req.headers['if-none-match'], entry.etag)) {
    reply.code(304).send();
    return;
  }
  reply.header('content-type', 'application/json; charset=utf-8').send(entry.body);
}

/** Sends the entry for a key, after the deferred villages' bodies when the key may be one of theirs. */
function answer(
  catalog: GeoCatalog,
  key: string | undefined,
  empty: CachedBody,
  req: FastifyRequest,
  reply: FastifyReply,
): Promise<void> | undefined {
  const entry = key === undefined ? undefined : catalog.get(key);
  if (entry || catalog.complete) {
    sendCached(req, reply, entry ?? empty);
    return undefined;
  }
  return catalog.whenComplete().then(() => sendCached(req, reply, (key && catalog.get(key)) || empty));
}

// hotPath: no request log lines, no per-request child logger (src/http/hot-path.ts).
const baseConfig = { rateLimit: false, validationForm: 'general', hotPath: true } as const;

const routes: FastifyPluginAsync = async (instance) => {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  // With no CORS origin configured the CORS hook adds nothing to any response: these routes skip
  // it (its per-request option merge); with origins configured they go through it as before.
  const routeConfig = app.deps.config.CORS_ORIGINS.length === 0 ? { ...baseConfig, cors: false as const } : baseConfig;
  const catalog = new GeoCatalog(app.deps.db, app.log);
  catalogs.set(app.deps, catalog);

  app.addHook('onReady', async () => {
    if (app.deps.loadGeoData) await loadBundledData(app.deps.db, app.deps.dialect, (line) => app.log.info(line));
    await catalog.start();
    if (app.deps.startWorkers) catalog.watch();
  });
  // The villages' bodies, left out of the start's build, soon after the server first answers.
  app.addHook('onListen', (done) => {
    setTimeout(() => {
      catalog.whenComplete().catch((err: unknown) => app.log.warn({ err }, 'geo: cannot build the villages yet'));
    }, VILLAGES_AFTER_LISTEN_MS).unref();
    done();
  });
  app.addHook('onClose', async () => catalog.stop());
  // The same answers, for the plainest spelling of each path, before Fastify (src/http/prepared-answers.ts).
  // With CORS origins configured every geo request goes through Fastify's CORS hook instead.
  if (app.deps.config.CORS_ORIGINS.length === 0) app.preparedAnswers.add((path) => preparedGeoAnswer(catalog, path));

  app.get('/provinces', { schema: ProvincesSchema, config: routeConfig }, (req, reply) => {
    return answer(catalog, 'provinces', EMPTY_DATA, req, reply as FastifyReply);
  });

  const byParent: Array<[path: string, operationId: string, summary: string, parent: string]> = [
    ['counties', 'listCountiesOfProvince', 'Active counties of a province', 'province'],
    ['districts', 'listDistrictsOfCounty', 'Active districts of a county', 'county'],
    ['cities', 'listCitiesOfDistrict', 'Active cities of a district', 'district'],
    ['villages', 'listVillagesOfDistrict', 'Active villages of a district', 'district'],
  ];
  for (const [path, operationId, summary, parent] of byParent) {
    const schema = byParentSchema(operationId, summary, parent);
    app.get(`/${path}/:id`, { schema, config: routeConfig }, (req, reply) => {
      return answer(catalog, `${path}/${req.params.id}`, EMPTY_DATA, req, reply as FastifyReply);
    });
  }

  app.get('/geographic/continents', { schema: ContinentsSchema, config: routeConfig }, (req, reply) => {
    return answer(catalog, 'continents', EMPTY_ARRAY, req, reply as FastifyReply);
  });

  app.get('/geographic/:level/:parentId/children', { schema: ChildrenSchema, config: routeConfig }, (req, reply) => {
    const level = req.params.level.toLowerCase();
    if (!isChildLevel(level)) throw new ValidationError(fieldError('level', fieldMessage('in', 'level')));
    const key = childrenKey(level, req.params.parentId);
    return answer(catalog, key || undefined, EMPTY_ARRAY, req, reply as FastifyReply);
  });
};

const BY_PARENT_PATH = /^\/api\/(counties|districts|cities|villages)\/([1-9]\d{0,9})$/;
const CHILDREN_PATH = /^\/api\/geographic\/([a-z]+)\/([a-z0-9_]{1,40})\/children$/;

/**
 * The catalogue entry a geo route would send for this exact path, when the path is spelled the
 * way the route's parameters come out unchanged (lower-case level, a plain id) and the entry
 * exists; anything else is left to the Fastify route.
 */
export function preparedGeoAnswer(catalog: GeoCatalog, path: string): PreparedMatch | undefined {
  let route: string;
  let key: string | undefined;
  if (path === '/api/provinces') [route, key] = ['/api/provinces', 'provinces'];
  else if (path === '/api/geographic/continents') [route, key] = ['/api/geographic/continents', 'continents'];
  else {
    const children = CHILDREN_PATH.exec(path);
    const byParent = children ? null : BY_PARENT_PATH.exec(path);
    if (children)
      [route, key] = [
        '/api/geographic/:level/:parentId/children',
        isChildLevel(children[1]!) ? childrenKey(children[1]!, children[2]!) : undefined,
      ];
    else if (byParent) [route, key] = [`/api/${byParent[1]}/:id`, `${byParent[1]}/${byParent[2]}`];
    else return undefined;
  }
  const answer = key === undefined ? undefined : catalog.get(key);
  return answer && { route, answer, cacheControl: CACHE_CONTROL };
}

export default routes;
