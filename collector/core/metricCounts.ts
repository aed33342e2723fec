import type { MetricCounts } from './summary';
import { p75Rank } from './vitals';

/** How many of the ascending `sorted` values are at or below `limit` (the first index above it). */
const atOrBelow = (sorted: ArrayLike<number>, limit: number) => {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (sorted[middle]! <= limit) low = middle + 1;
    else high = middle;
  }
  return low;
};

/**
 * One metric's samples, sorted ascending, counted against web-vitals' `thresholds` (at or below
 * the first good, above the second poor, as core/vitals.ts `rateMetric` rates one value) with the
 * value at the p75 rank. From the sorted values both come at the cost of two binary searches,
 * so a store sorts a range's samples once for the counts and the p75 (sqlite/p75.ts).
 *
 * @example
 * metricCountsOf(Float64Array.of(100, 900, 2600, 5000), [2500, 4000])
 * // { samples: 4, good: 2, needs_improvement: 1, poor: 1, p75: 2600 }
 */
export const metricCountsOf = (sorted: ArrayLike<number>, [good, poor]: readonly [good: number, poor: number]): MetricCounts => {
  const rated = atOrBelow(sorted, good);
  const notPoor = atOrBelow(sorted, poor);
  return {
    samples: sorted.length,
    good: rated,
    needs_improvement: Math.max(0, notPoor - rated),
    poor: sorted.length - notPoor,
    p75: sorted.length ? sorted[p75Rank(sorted.length)]! : null,
  };
};
