import type { Database } from 'better-sqlite3';
import { metricCountsOf } from '../../core/metricCounts';
import { metricDaysOf } from '../../core/metricDays';
import { selectRank } from '../../core/selectRank';
import { p75Rank } from '../../core/vitals';

/** A group's numbers and the thresholds its rows gave. */
interface Samples {
  values: number[];
  good: number;
  poor: number;
}

/** Samples with the times of their last update. */
interface TimedSamples extends Samples {
  times: number[];
}

/**
 * Registers two aggregates on `db`, so that SQL groups the samples and core's rules pick from them:
 * - `p75(value)`: the group's value at core/vitals.ts `p75Rank` (the nearest rank, as web-vitals and
 *   CrUX report it). SQLite's own percentile functions interpolate, or round the rank down. One
 *   pass and a selection (core/selectRank.ts) in each group's numbers, where ROW_NUMBER() over a
 *   window sorted every row in SQLite's sorter: much faster for the dashboard's daily and per-page
 *   p75 (measured by bench/dashboard.mjs).
 * - `metric_counts(value, good, poor)`: the group's samples counted against the thresholds with
 *   that p75 (core/metricCounts.ts), as JSON text of a MetricCounts. The counts are taken in
 *   JavaScript from the values p75 needs anyway, so a metric's summary is one pass over its
 *   samples: the SUM(value <= ?) expressions beside p75() cost SQLite as much again (measured
 *   by the bench's /summary).
 * - `metric_days(updated_at, value, good, poor)`: the same with the p75 per UTC day of the update
 *   (core/metricDays.ts), as JSON text: the dashboard's Web Vitals, counts and daily chart, from one
 *   pass over a range's samples instead of one for each.
 *
 * @example
 * registerP75(db);
 * db.prepare('SELECT name, p75(value) AS p75 FROM performance_metrics GROUP BY name').all();
 * JSON.parse(db.prepare("SELECT metric_counts(value, 2500, 4000) FROM performance_metrics WHERE name = 'LCP'").pluck().get());
 */
export const registerP75 = (db: Database) => {
  db.aggregate<number[]>('p75', {
    start: () => [],
    step: (values, value) => {
      if (typeof value == 'number') values.push(value);
    },
    result: (values) => (values.length ? selectRank(Float64Array.from(values), p75Rank(values.length)) : null),
    deterministic: true,
  });
  db.aggregate<Samples>('metric_counts', {
    start: () => ({ values: [], good: 0, poor: 0 }),
    // Three arguments, where better-sqlite3's types declare one (it passes every SQL argument).
    step: ((samples: Samples, value: unknown, good: number, poor: number) => {
      if (typeof value != 'number') return;
      samples.values.push(value);
      samples.good = good;
      samples.poor = poor;
    }) as (samples: Samples) => void,
    result: ({ values, good, poor }) => JSON.stringify(metricCountsOf(Float64Array.from(values), [good, poor])),
    deterministic: true,
  });
  db.aggregate<TimedSamples>('metric_days', {
    start: () => ({ times: [], values: [], good: 0, poor: 0 }),
    step: ((samples: TimedSamples, at: unknown, value: unknown, good: number, poor: number) => {
      if (typeof value != 'number') return;
      samples.times.push(at as number);
      samples.values.push(value);
      samples.good = good;
      samples.poor = poor;
    }) as (samples: TimedSamples) => void,
    result: ({ times, values, good, poor }) => JSON.stringify(metricDaysOf(times, values, [good, poor])),
    deterministic: true,
  });
};
