import fc from 'fast-check';
import { expect, test } from 'vitest';
import { selectRank } from './selectRank';

test('selectRank is the value a sort puts at the rank, for any order, duplicates and ranks', () => {
  const value = fc.oneof(fc.integer({ min: -3, max: 3 }), fc.double({ min: -1e6, max: 1e6, noNaN: true, noDefaultInfinity: true }), fc.constantFrom(Infinity, -Infinity));
  fc.assert(
    fc.property(fc.array(value, { minLength: 1, maxLength: 300 }).chain((values) => fc.tuple(fc.constant(values), fc.nat(values.length - 1))), ([values, rank]) => {
      const sorted = Float64Array.from(values).sort();
      const copy = Float64Array.from(values);
      // -0 and 0 are one value to it, as to SQL (a sort puts -0 first).
      expect(selectRank(copy, rank) + 0).toBe(sorted[rank]! + 0);
      // Only reordered.
      expect(copy.sort()).toEqual(sorted);
    }),
    { numRuns: 2000 },
  );
});

test('selectRank stays fast on orders that defeat a plain quickselect: sorted, reversed, all equal, organ pipe', () => {
  const n = 200_000;
  const orders = {
    sorted: Float64Array.from({ length: n }, (_, i) => i),
    reversed: Float64Array.from({ length: n }, (_, i) => n - i),
    equal: new Float64Array(n).fill(0.1),
    organ: Float64Array.from({ length: n }, (_, i) => (i < n / 2 ? i : n - i)),
    twoValues: Float64Array.from({ length: n }, (_, i) => i % 2),
  };
  for (const [name, values] of Object.entries(orders)) {
    const expected = Float64Array.from(values).sort()[150_000];
    expect(selectRank(values, 150_000), name).toBe(expected);
  }
});
