// Percentiles by nearest rank: the one definition behind the staff reports' times and the
// benchmarks' latencies, so a p90 means the same thing in both.

/** The value at or below which `share` (0 to 1) of the ascending values lie, by nearest rank; null without values. */
export function percentile(sorted: readonly number[], share: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(share * sorted.length) - 1))]!;
}

/** The median of values in any order (the lower middle one of an even count); null without values. */
export function median(values: readonly number[]): number | null {
  return percentile(
    [...values].sort((a, b) => a - b),
    0.5,
  );
}
