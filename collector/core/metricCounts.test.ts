import fc from 'fast-check';
import { expect, test } from 'vitest';
import { metricCountsOf } from './metricCounts';
import { p75Rank } from './vitals';

test('counts from sorted samples are what rating each sample one by one gives, with the value at the p75 rank', () => {
  expect(metricCountsOf(Float64Array.of(), [2500, 4000])).toEqual({ samples: 0, good: 0, needs_improvement: 0, poor: 0, p75: null });
  // Values on the thresholds: at or below the first is good, at or below the second needs improvement.
  expect(metricCountsOf(Float64Array.of(100, 2500, 2500.5, 4000, 4000.5), [2500, 4000])).toEqual({ samples: 5, good: 2, needs_improvement: 2, poor: 1, p75: 4000 });
  fc.assert(
    fc.property(
      fc.array(fc.oneof(fc.integer({ min: -5, max: 6000 }), fc.double({ min: 0, max: 1, noNaN: true })), { maxLength: 60 }),
      fc.tuple(fc.oneof(fc.integer({ min: 0, max: 5000 }), fc.double({ min: 0, max: 1, noNaN: true })), fc.oneof(fc.integer({ min: 0, max: 5000 }), fc.double({ min: 0, max: 1, noNaN: true }))),
      (values, [good, poor]) => {
        const sorted = [...values].sort((a, b) => a - b);
        expect(metricCountsOf(Float64Array.from(values).sort(), [good, poor])).toEqual({
          samples: values.length,
          good: values.filter((value) => value <= good).length,
          needs_improvement: values.filter((value) => value > good && value <= poor).length,
          poor: values.filter((value) => value > poor).length,
          p75: values.length ? sorted[p75Rank(values.length)] : null,
        });
      },
    ),
    { numRuns: 300 },
  );
});
