// Routes declared with `config: { hotPath: true }` (the geographic reference data: public,
// answered from memory) skip the per-request work every other route gets:
// - no "incoming request" / "request completed" log lines (two JSON lines and two write(2) calls
//   per request at the default level `info`; errors are still logged by the error handler);
// - no per-request child logger: `req.log` is the app's logger (lines logged through it carry no
//   reqId binding; the error handler adds the id itself).
// App-wide hooks that a hot-path route does not need return at once when they see the flag
// (`isHotPath`). What a client receives does not change. docs/performance.md ("Keeping a route on
// the hot path") says how a new app-wide hook keeps these routes fast.
import { LogController, type FastifyInstance, type FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A route that takes the lean path described in src/http/hot-path.ts. */
    hotPath?: boolean;
  }
}

export function isHotPath(req: FastifyRequest): boolean {
  return req.routeOptions?.config?.hotPath === true;
}

/** Fastify's `logController` option: request logging off on hot-path routes only. */
export function hotPathLogController(): LogController {
  // isLogDisabled may also be given a raw request (before routing): no routeOptions, so logged.
  return new LogController({ disableRequestLogging: (req) => isHotPath(req) });
}

/** Hot-path routes share the app's logger instead of making a child per request. */
export function registerHotPathRoutes(app: FastifyInstance): void {
  const shared = app.log;
  app.addHook('onRoute', (route) => {
    if (route.config?.hotPath) route.childLoggerFactory = () => shared;
  });
}
