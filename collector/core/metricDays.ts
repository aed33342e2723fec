import { metricCountsOf } from './metricCounts';
import type { MetricCounts } from './summary';
import { selectRank } from './selectRank';
import { p75Rank } from './vitals';

const DAY = 86_400_000;

/** One UTC day of a metric: its midnight in ms, the samples last updated that day and their p75. */
export interface MetricDay {
  day: number;
  samples: number;
  p75: number;
}

/** A metric over a range: its counts against the thresholds and p75 (MetricCounts), and its days. */
export type MetricCountsWithDays = MetricCounts & { daily: MetricDay[] };

/**
 * One metric's samples, given as the times of their last update (ms) and their values in the same
 * order (any order), as core/metricCounts.ts counts them, and per UTC day of the update the samples
 * and the value at the p75 rank, days with samples oldest first: the summary's vitals and the daily
 * series' p75 of one range from one read of its samples (store/sqlite/p75.ts).
 *
 * @example
 * metricDaysOf([0, 0, 86_400_000], [100, 900, 5000], [2500, 4000])
 * // { samples: 3, good: 2, needs_improvement: 0, poor: 1, p75: 5000,
 * //   daily: [{ day: 0, samples: 2, p75: 900 }, { day: 86400000, samples: 1, p75: 5000 }] }
 */
export const metricDaysOf = (
  times: ArrayLike<number>,
  values: ArrayLike<number>,
  thresholds: readonly [good: number, poor: number],
): MetricCountsWithDays => {
  const days = new Map<number, number[]>();
  for (let i = 0; i < values.length; i++) {
    const day = Math.floor(times[i]! / DAY) * DAY;
    const list = days.get(day);
    if (list) list.push(values[i]!);
    else days.set(day, [values[i]!]);
  }
  const daily = [...days.keys()]
    .sort((a, b) => a - b)
    .map((day) => {
      const those = Float64Array.from(days.get(day)!);
      return { day, samples: those.length, p75: selectRank(those, p75Rank(those.length)) };
    });
  return { ...metricCountsOf(Float64Array.from(values), thresholds), daily };
};
