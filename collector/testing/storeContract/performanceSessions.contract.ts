import { describe, expect } from 'vitest';
import { DEFAULT_SITE_KEY } from '../../core/records';
import { p75Rank } from '../../core/vitals';
import { seedStore } from '../seed';
import type { StoreTest } from './storeTest';

/**
 * Performance sessions (store/contract/performanceSessions.ts), part of the store contract
 * (store.contract.ts), run by describeStoreContract with its fresh store for each test.
 *
 * @example
 * describePerformanceSessionsContract(storeTest(() => ({ store, seed, reopen })));
 */
export const describePerformanceSessionsContract = (test: StoreTest) =>
  describe('performance sessions', () => {

    test('a performance session is created, then each metric keeps its latest value', async ({ seed }) => {
      await seed.upsertSession(DEFAULT_SITE_KEY, { session_id: 's1', page_url: 'https://shop.example/', metrics: { LCP: { value: 2000 }, TTFB: { value: 300 } } });
      await seed.upsertSession(DEFAULT_SITE_KEY, { session_id: 's1', metrics: { LCP: { value: 2500, rating: 'good' }, CLS: { value: 0.02 } } });
      const sessions = await seed.stored('performance', DEFAULT_SITE_KEY);
      expect(sessions).toHaveLength(1);
      expect(sessions[0]).toMatchObject({
        session_id: 's1',
        page_url: 'https://shop.example/',
        metrics: { LCP: { value: 2500, rating: 'good' }, TTFB: { value: 300 }, CLS: { value: 0.02 } },
      });
    });

    test('upserts of one session in one turn, and from two processes at once, merge into one row: each metric its latest value', async ({ store, seed, reopen }) => {
      const other = seedStore(await reopen());
      const t = Date.UTC(2026, 5, 10, 12);
      await Promise.all([
        seed.upsertSession(DEFAULT_SITE_KEY, { session_id: 's1', page_url: 'https://shop.example/', metrics: { LCP: { value: 1000 } } }, t),
        other.upsertSession(DEFAULT_SITE_KEY, { session_id: 's1', metrics: { CLS: { value: 0.1 } } }, t + 1),
        seed.upsertSession(DEFAULT_SITE_KEY, { session_id: 's1', navigation_type: 'reload', metrics: { LCP: { value: 1500 }, INP: { value: 80 } } }, t + 2),
        other.upsertSession(DEFAULT_SITE_KEY, { session_id: 's1', metrics: { TTFB: { value: 200 } } }, t + 3),
      ]);
      await other.upsertSession(DEFAULT_SITE_KEY, { session_id: 's1', metrics: { INP: { value: 120 } } }, t + 4);
      const sessions = await seed.stored('performance', DEFAULT_SITE_KEY);
      expect(sessions).toHaveLength(1);
      expect(sessions[0]).toMatchObject({
        page_url: 'https://shop.example/',
        navigation_type: 'reload',
        metrics: { LCP: { value: 1500 }, CLS: { value: 0.1 }, INP: { value: 120 }, TTFB: { value: 200 } },
      });
      expect(await store.performance.metricCounts(DEFAULT_SITE_KEY, { name: 'LCP', thresholds: [2500, 4000] })).toMatchObject({ samples: 1, p75: 1500 });
      expect(await store.performance.metricCounts(DEFAULT_SITE_KEY, { name: 'INP', thresholds: [200, 500], since: t + 4 })).toMatchObject({ samples: 1, p75: 120 });
      expect(await store.performance.metricCounts(DEFAULT_SITE_KEY, { name: 'TTFB', thresholds: [800, 1800], since: t + 4 })).toMatchObject({ samples: 0 });
    });

    test('metric counts against thresholds, and the value at the p75 rank', async ({ store, seed }) => {
      const values = [100, 900, 1200, 2600, 2700, 4100, 5000, 700];
      for (const [i, value] of values.entries()) await seed.upsertSession(DEFAULT_SITE_KEY, { session_id: `s${i}`, metrics: { LCP: { value } } });
      const counts = await store.performance.metricCounts(DEFAULT_SITE_KEY, { name: 'LCP', thresholds: [2500, 4000] });
      const sorted = [...values].sort((a, b) => a - b);
      expect(counts).toEqual({ samples: 8, good: 4, needs_improvement: 2, poor: 2, p75: sorted[Math.ceil(8 * 0.75) - 1] });
      expect(await store.performance.metricCounts(DEFAULT_SITE_KEY, { name: 'INP', thresholds: [200, 500] })).toMatchObject({ samples: 0, p75: null });
    });

    test('metric counts from since: values on a threshold rate as the lower band, samples updated before since are left out', async ({ store, seed }) => {
      const t = Date.UTC(2026, 5, 10, 12);
      const older = [2500, 4000, 9000];
      const newer = [2500, 2500.5, 4000, 4000.5, 100, 3000, 3100];
      for (const [i, value] of older.entries()) await seed.upsertSession(DEFAULT_SITE_KEY, { session_id: `o${i}`, metrics: { LCP: { value } } }, t - 1);
      for (const [i, value] of newer.entries()) await seed.upsertSession(DEFAULT_SITE_KEY, { session_id: `n${i}`, metrics: { LCP: { value } } }, t);
      const p75 = (values: number[]) => [...values].sort((a, b) => a - b)[p75Rank(values.length)];
      expect(await store.performance.metricCounts(DEFAULT_SITE_KEY, { name: 'LCP', thresholds: [2500, 4000], since: t })).toEqual({
        samples: 7, good: 2, needs_improvement: 4, poor: 1, p75: p75(newer),
      });
      expect(await store.performance.metricCounts(DEFAULT_SITE_KEY, { name: 'LCP', thresholds: [2500, 4000], since: t - 1 })).toEqual({
        samples: 10, good: 3, needs_improvement: 5, poor: 2, p75: p75([...older, ...newer]),
      });
      expect(await store.performance.metricCounts(DEFAULT_SITE_KEY, { name: 'LCP', thresholds: [2500, 4000], since: t + 1 })).toEqual({
        samples: 0, good: 0, needs_improvement: 0, poor: 0, p75: null,
      });
    });
  });
