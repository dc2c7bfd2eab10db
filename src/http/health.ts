// Probes: GET /health (kept as it was: the database answers), GET /health/live (the process
// answers; never touches the database) and GET /health/ready (the database answers, every
// migration is applied, the geographic data is loaded; 503 naming the check that failed).
// Probes are logged at warn and above only, so a load balancer polling them does not fill the log.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { databaseIsUp } from '../db/index.js';
import { pendingMigrations } from '../db/migrate.js';

const probe = { rateLimit: false } as const;
const Status = Type.Object({ status: Type.String() });
const Ready = Type.Object({
  status: Type.String(),
  failed: Type.Optional(Type.String()),
  detail: Type.Optional(Type.String()),
});

export function registerHealth(app: FastifyInstance): void {
  const { db } = app.deps;
  app.get(
    '/health',
    {
      schema: {
        summary: 'Liveness and database check',
        operationId: 'checkHealth',
        description:
          '200 with status ok when the process answers and the database is reachable, else 503. For load balancers.',
        tags: ['health'],
        response: { 200: Status, 503: Status },
      },
      config: probe,
      logLevel: 'warn',
    },
    async (_req, reply) => {
      const up = await databaseIsUp(db);
      return reply.code(up ? 200 : 503).send({ status: up ? 'ok' : 'unavailable' });
    },
  );

  app.get(
    '/health/live',
    {
      schema: {
        summary: 'The process answers (no database access)',
        operationId: 'checkLiveness',
        description: 'Answers 200 as long as the process runs, without touching the database: for a liveness probe.',
        tags: ['health'],
        response: { 200: Status },
      },
      config: probe,
      logLevel: 'warn',
    },
    async () => ({ status: 'ok' }),
  );

  app.get(
    '/health/ready',
    {
      schema: {
        summary: 'Ready for traffic: database, migrations, geographic data',
        operationId: 'checkReadiness',
        description:
          '200 when the database answers, no migration is pending and the geographic data is loaded; else 503 naming the failed check.',
        tags: ['health'],
        response: { 200: Ready, 503: Ready },
      },
      config: probe,
      logLevel: 'warn',
    },
    async (_req, reply) => {
      const failed = (check: string, detail: string) =>
        reply.code(503).send({ status: 'unavailable', failed: check, detail });
      if (!(await databaseIsUp(db))) return failed('database', 'the database does not answer');
      let pending: string[];
      try {
        pending = await pendingMigrations(db);
      } catch {
        return failed('migrations', 'cannot read the applied migrations');
      }
      if (pending.length) return failed('migrations', `${pending.length} not applied, first ${pending[0]}`);
      const province = await db
        .selectFrom('provinces')
        .select('id')
        .limit(1)
        .executeTakeFirst()
        .catch(() => undefined);
      if (!province) return failed('geo_data', 'the geographic data is not loaded');
      return { status: 'ok' };
    },
  );
}
