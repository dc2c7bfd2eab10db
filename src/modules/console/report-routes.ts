// The reports (staff): SLA compliance, first-response and resolution times, volume.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import { Type, type TSchema } from 'typebox';
import { msg, ValidationError } from '../../core/errors.js';
import { errorResponses } from '../../http/schemas.js';
import { STAFF_GENERAL as STAFF } from './queue-routes.js';
import * as reports from './reports.js';

const tags = ['tickets-staff'];
const Day = Type.String({
  pattern: '^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])$',
  description: 'YYYY-MM-DD (UTC).',
});
const RangeProperties = {
  from: Type.Optional({ ...Day, description: 'First day of creation counted (UTC); none: from the first ticket.' }),
  to: Type.Optional({ ...Day, description: 'Last day of creation counted (UTC), inclusive; none: up to now.' }),
};
const RangeQuery = Type.Object(RangeProperties);
const VolumeQuery = Type.Object({ ...RangeProperties, by: Type.Enum(['day', 'category']) });

const Compliance = Type.Object({ met: Type.Integer(), breached: Type.Integer() }, { title: 'Compliance' });
const Targets = { first_response: Compliance, resolution: Compliance };
const SlaReport = Type.Object({
  by_priority: Type.Array(Type.Object({ priority: Type.String(), ...Targets })),
  by_week: Type.Array(Type.Object({ week: Type.String({ description: 'The Monday, YYYY-MM-DD (UTC).' }), ...Targets })),
});
const Durations = Type.Object(
  {
    median: Type.Union([Type.Number(), Type.Null()]),
    p90: Type.Union([Type.Number(), Type.Null()]),
    count: Type.Integer(),
  },
  {
    title: 'Durations',
    description: 'Minutes of the SLA clock (working minutes with SLA_CLOCK=business); null without tickets.',
  },
);
const TimesReport = Type.Object({
  overall: Type.Object({ first_response: Durations, resolution: Durations }),
  by_priority: Type.Array(Type.Object({ priority: Type.String(), first_response: Durations, resolution: Durations })),
});
const VolumeReport = Type.Object({
  by: Type.Enum(['day', 'category']),
  data: Type.Array(Type.Object({ key: Type.Union([Type.String(), Type.Null()]), count: Type.Integer() })),
});

const ok = <T extends TSchema>(data: T) => ({
  200: Type.Object({ success: Type.Boolean(), data }),
  ...errorResponses(401, 403, 422),
});

/** The range of the query; 422 (on from) when it ends before it starts. */
function rangeOf(query: { from?: string; to?: string }) {
  const { from, to } = query;
  if (from && to && from > to) throw new ValidationError({ from: [msg('console.range_order')] }, 'general');
  return reports.rangeOf(from, to);
}

const reportRoutes: FastifyPluginAsync = async (root) => {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const deps = app.deps;

  app.get(
    '/admin/reports/sla',
    {
      schema: {
        operationId: 'staffSlaReport',
        summary: 'SLA compliance by priority and by week (staff)',
        description:
          'Tickets created in the range: met and breached, first response and resolution. A target neither met nor yet past its deadline counts in neither.',
        tags,
        querystring: RangeQuery,
        response: ok(SlaReport),
      },
      config: STAFF,
    },
    async (req) => ({ success: true, data: await reports.slaReport(deps, rangeOf(req.query)) }),
  );

  app.get(
    '/admin/reports/times',
    {
      schema: {
        operationId: 'staffTimesReport',
        summary: 'First-response and resolution times: median and 90th percentile (staff)',
        description: 'Of the tickets created in the range that were answered or resolved, overall and by priority.',
        tags,
        querystring: RangeQuery,
        response: ok(TimesReport),
      },
      config: STAFF,
    },
    async (req) => ({ success: true, data: await reports.timesReport(deps, rangeOf(req.query)) }),
  );

  app.get(
    '/admin/reports/volume',
    {
      schema: {
        operationId: 'staffVolumeReport',
        summary: 'Tickets created, by day or by category (staff)',
        description:
          'by=day: one entry per UTC day with tickets, in order; by=category: most tickets first (null: none).',
        tags,
        querystring: VolumeQuery,
        response: ok(VolumeReport),
      },
      config: STAFF,
    },
    async (req) => ({ success: true, data: await reports.volumeReport(deps, rangeOf(req.query), req.query.by) }),
  );
};

export default reportRoutes;
