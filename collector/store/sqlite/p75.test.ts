import Database from 'better-sqlite3';
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { p75Rank } from '../../core/vitals';
import { registerP75 } from './p75';

test('p75(value) is the value at core/vitals.ts p75Rank of each group, null for no value', () => {
  const db = new Database(':memory:');
  registerP75(db);
  db.exec('CREATE TABLE samples (grp INTEGER, value REAL)');
  const insert = db.prepare('INSERT INTO samples VALUES (?, ?)');
  const query = db.prepare<[], { grp: number; p75: number | null }>('SELECT grp, p75(value) AS p75 FROM samples GROUP BY grp ORDER BY grp');
  fc.assert(
    fc.property(fc.array(fc.array(fc.oneof(fc.integer({ min: -5, max: 10_000 }), fc.double({ min: 0, max: 1, noNaN: true })), { maxLength: 40 }), { maxLength: 6 }), (groups) => {
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
