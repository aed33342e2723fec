import Database from 'better-sqlite3';
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { metricCountsOf } from '../../core/metricCounts';
import { p75Rank } from '../../core/vitals';
import { registerP75 } from './p75';

const samples = () => fc.array(fc.array(fc.oneof(fc.integer({ min: -5, max: 10_000 }), fc.double({ min: 0, max: 1, noNaN: true })), { maxLength: 40 }), { maxLength: 6 });

test('p75(value) is the value at core/vitals.ts p75Rank of each group, null for no value', () => {
  const db = new Database(':memory:');
  registerP75(db);
  db.exec('CREATE TABLE samples (grp INTEGER, value REAL)');
  const insert = db.prepare('INSERT INTO samples VALUES (?, ?)');
  const query = db.prepare<[], { grp: number; p75: number | null }>('SELECT grp, p75(value) AS p75 FROM samples GROUP BY grp ORDER BY grp');
  fc.assert(
    fc.property(samples(), (groups) => {
      db.exec('DELETE FROM samples');
      groups.forEach((values, grp) => values.forEach((value) => insert.run(grp, value)));
      const expected = groups.flatMap((values, grp) => (values.length ? [{ grp, p75: [...values].sort((a, b) => a - b)[p75Rank(values.length)]! }] : []));
      expect(query.all()).toEqual(expected);
    }),
    { numRuns: 200 },
  );
  expect(db.prepare('SELECT p75(value) AS p75 FROM samples WHERE 0').get()).toEqual({ p75: null });
  db.close();
});

test('metric_counts(value, good, poor) is core/metricCounts.ts of each group as JSON, the counts SQL would make beside p75(value)', () => {
  const db = new Database(':memory:');
  registerP75(db);
  db.exec('CREATE TABLE samples (grp INTEGER, value REAL)');
  const insert = db.prepare('INSERT INTO samples VALUES (?, ?)');
  const counted = db.prepare<[number, number], { grp: number; counts: string }>('SELECT grp, metric_counts(value, ?, ?) AS counts FROM samples GROUP BY grp ORDER BY grp');
  const bySql = db.prepare<[number, number, number, number], { grp: number; samples: number; good: number; needs_improvement: number; poor: number; p75: number }>(
    `SELECT grp, COUNT(*) AS samples, SUM(value <= ?) AS good, SUM(value > ? AND value <= ?) AS needs_improvement, SUM(value > ?) AS poor, p75(value) AS p75
     FROM samples GROUP BY grp ORDER BY grp`,
  );
  fc.assert(
    fc.property(samples(), fc.integer({ min: 0, max: 5000 }), fc.integer({ min: 0, max: 5000 }), (groups, low, high) => {
      const [good, poor] = [Math.min(low, high), Math.max(low, high)];
      db.exec('DELETE FROM samples');
      groups.forEach((values, grp) => values.forEach((value) => insert.run(grp, value)));
      const rows = counted.all(good, poor).map(({ grp, counts }) => ({ grp, ...JSON.parse(counts) }));
      expect(rows).toEqual(bySql.all(good, good, poor, poor));
      expect(rows).toEqual(groups.flatMap((values, grp) => (values.length ? [{ grp, ...metricCountsOf(Float64Array.from(values).sort(), [good, poor]) }] : [])));
    }),
    { numRuns: 200 },
  );
  expect(JSON.parse(db.prepare<[], { counts: string }>('SELECT metric_counts(value, 1, 2) AS counts FROM samples WHERE 0').get()!.counts)).toEqual({
    samples: 0, good: 0, needs_improvement: 0, poor: 0, p75: null,
  });
  db.close();
});
