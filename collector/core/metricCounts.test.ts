import fc from 'fast-check';
import { expect, test } from 'vitest';
import { metricCountsOf } from './metricCounts';
import { metricDaysOf } from './metricDays';
import { p75Rank } from './vitals';

test('counts of samples are what rating each sample one by one gives, with the value at the p75 rank', () => {
  expect(metricCountsOf(Float64Array.of(), [2500, 4000])).toEqual({ samples: 0, good: 0, needs_improvement: 0, poor: 0, p75: null });
  // Values on the thresholds: at or below the first is good, at or below the second needs improvement.
  expect(metricCountsOf(Float64Array.of(100, 2500, 2500.5, 4000, 4000.5), [2500, 4000])).toEqual({ samples: 5, good: 2, needs_improvement: 2, poor: 1, p75: 4000 });
  fc.assert(
    fc.property(
      fc.array(fc.oneof(fc.integer({ min: -5, max: 6000 }), fc.double({ min: 0, max: 1, noNaN: true })), { maxLength: 60 }),
      fc.tuple(fc.oneof(fc.integer({ min: 0, max: 5000 }), fc.double({ min: 0, max: 1, noNaN: true })), fc.oneof(fc.integer({ min: 0, max: 5000 }), fc.double({ min: 0, max: 1, noNaN: true }))),
      (values, [good, poor]) => {
        const sorted = [...values].sort((a, b) => a - b);
        expect(metricCountsOf(Float64Array.from(values), [good, poor])).toEqual({
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

test('the days of a metric: per UTC day of the update its samples and p75, oldest first, beside the counts of all of them', () => {
  const day = 86_400_000;
  expect(metricDaysOf([], [], [2500, 4000])).toEqual({ samples: 0, good: 0, needs_improvement: 0, poor: 0, p75: null, daily: [] });
  fc.assert(
    fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 5 * day }), fc.integer({ min: 0, max: 6000 })), { maxLength: 60 }), (samples) => {
      const times = samples.map(([at]) => at);
      const values = samples.map(([, value]) => value);
      const p75 = (list: number[]) => [...list].sort((a, b) => a - b)[p75Rank(list.length)]!;
      const days = [...new Set(times.map((at) => Math.floor(at / day) * day))].sort((a, b) => a - b);
      expect(metricDaysOf(times, values, [2500, 4000])).toEqual({
        ...metricCountsOf(Float64Array.from(values).sort(), [2500, 4000]),
        daily: days.map((start) => {
          const those = samples.filter(([at]) => at >= start && at < start + day).map(([, value]) => value);
          return { day: start, samples: those.length, p75: p75(those) };
        }),
      });
    }),
    { numRuns: 200 },
  );
});
