import { selectRank } from './selectRank';
import type { MetricCounts } from './summary';
import { p75Rank } from './vitals';

/**
 * One metric's samples counted against web-vitals' `thresholds` (at or below the first good,
 * above the second poor, as core/vitals.ts `rateMetric` rates one value) with the value at the
 * p75 rank (core/selectRank.ts: no sort). One read of a range's samples gives both, so a store
 * hands them over once (store/sqlite/p75.ts). Reorders `values`.
 *
 * @example
 * metricCountsOf(Float64Array.of(5000, 100, 2600, 900), [2500, 4000])
 * // { samples: 4, good: 2, needs_improvement: 1, poor: 1, p75: 2600 }
 */
export const metricCountsOf = (values: Float64Array, [good, poor]: readonly [good: number, poor: number]): MetricCounts => {
  let rated = 0;
  let notPoor = 0;
  for (const value of values) {
    if (value <= good) rated++;
    if (value <= poor) notPoor++;
  }
  return {
    samples: values.length,
    good: rated,
    needs_improvement: Math.max(0, notPoor - rated),
    poor: values.length - notPoor,
    p75: values.length ? selectRank(values, p75Rank(values.length)) : null,
  };
};
