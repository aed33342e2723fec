import type { Database } from 'better-sqlite3';
import { p75Rank } from '../../core/vitals';

/**
 * Registers the aggregate `p75(value)` on `db`: the group's value at core/vitals.ts `p75Rank` (the
 * nearest rank, as web-vitals and CrUX report it), so SQL groups the samples and core's rule picks
 * the value. SQLite's own percentile functions interpolate, or round the rank down.
 * One pass and one sort of each group's numbers, where ROW_NUMBER() over a window sorted every
 * row in SQLite's sorter: 5 to 7 times faster for the dashboard's daily and per-page p75 at
 * 100,000 sessions (bench/dashboard.mjs).
 *
 * @example
 * registerP75(db);
 * db.prepare('SELECT name, p75(value) AS p75 FROM performance_metrics GROUP BY name').all();
 */
export const registerP75 = (db: Database) => {
  db.aggregate<number[]>('p75', {
    start: () => [],
    step: (values, value) => {
      if (typeof value == 'number') values.push(value);
    },
    result: (values) => (values.length ? Float64Array.from(values).sort()[p75Rank(values.length)] : null),
    deterministic: true,
  });
};
