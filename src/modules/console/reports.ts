// The reports: SLA compliance (met and breached, first response and resolution, by priority and
// by week), first-response and resolution times (median and 90th percentile, in minutes of the
// SLA clock: working minutes with SLA_CLOCK=business), and the volume by day or category.
import type { AppDeps } from '../../core/deps.js';
import { percentile } from '../../core/percentile.js';
import { slaClockOf } from '../tickets/calendar/clock.js';
import { workingTimeBetween } from '../tickets/calendar/working-time.js';
import * as repo from './reports-query.js';

const PRIORITIES = ['high', 'normal', 'low'];
const BATCH = 5_000;

/** YYYY-MM-DD days to the range of creation instants: from its first moment to the end of `to`. */
export function rangeOf(from?: string, to?: string): repo.Range {
  const end = to ? new Date(Date.parse(`${to}T00:00:00.000Z`) + 86_400_000).toISOString() : undefined;
  return { from: from ? `${from}T00:00:00.000Z` : undefined, to: end };
}

const compliance = (met: number | string, breached: number | string) => ({
  met: Number(met ?? 0),
  breached: Number(breached ?? 0),
});
const both = (r: repo.ComplianceRow) => ({
  first_response: compliance(r.fr_met, r.fr_breached),
  resolution: compliance(r.res_met, r.res_breached),
});

export async function slaReport(deps: AppDeps, range: repo.Range) {
  const now = new Date().toISOString();
  const [byPriority, byWeek] = await Promise.all([
    repo.complianceByPriority(deps.db, range, now),
    repo.complianceByWeek(deps.db, range, now),
  ]);
  const found = new Map(byPriority.map((r) => [r.key, r]));
  const empty = { key: '', fr_met: 0, fr_breached: 0, res_met: 0, res_breached: 0 };
  return {
    by_priority: PRIORITIES.map((priority) => ({ priority, ...both(found.get(priority) ?? empty) })),
    by_week: byWeek.map((r) => ({ week: r.key, ...both(r) })),
  };
}

function durations(values: number[]) {
  const sorted = values.sort((a, b) => a - b);
  const round = (v: number | null) => (v === null ? null : Math.round(v * 10) / 10);
  return { median: round(percentile(sorted, 0.5)), p90: round(percentile(sorted, 0.9)), count: sorted.length };
}

export async function timesReport(deps: AppDeps, range: repo.Range) {
  const clock = slaClockOf(deps.config);
  await clock.refresh(deps.db);
  const minutes = (from: string, to: string) => {
    const a = Date.parse(from);
    const b = Date.parse(to);
    return (clock.kind === 'calendar' ? Math.max(0, b - a) : workingTimeBetween(clock, a, b)) / 60_000;
  };
  const first: Record<string, number[]> = Object.fromEntries(PRIORITIES.map((p) => [p, []]));
  const resolution: Record<string, number[]> = Object.fromEntries(PRIORITIES.map((p) => [p, []]));
  // In batches: only the minutes (numbers) stay in memory, never the rows.
  for (let after = 0; ; ) {
    const rows = await repo.timedBatch(deps.db, range, after, BATCH);
    for (const r of rows) {
      if (r.first_response_at) first[r.priority]?.push(minutes(r.created_at, r.first_response_at));
      if (r.resolved_at) resolution[r.priority]?.push(minutes(r.created_at, r.resolved_at));
    }
    if (rows.length < BATCH) break;
    after = rows[rows.length - 1]!.id;
  }
  return {
    overall: {
      first_response: durations(Object.values(first).flat()),
      resolution: durations(Object.values(resolution).flat()),
    },
    by_priority: PRIORITIES.map((priority) => ({
      priority,
      first_response: durations(first[priority]!),
      resolution: durations(resolution[priority]!),
    })),
  };
}

export async function volumeReport(deps: AppDeps, range: repo.Range, by: 'day' | 'category') {
  return { by, data: await repo.volume(deps.db, range, by) };
}
