import { describe, expect } from 'vitest';
import { clientOf } from '../../core/clientOf';
import { DEFAULT_SITE_KEY, type PerformanceSession } from '../../core/records';
import { p75Rank } from '../../core/vitals';
import type { SessionDevice } from '../../store/contract/performanceSessions';
import type { StoreTest } from './storeTest';

const DAY = 86_400_000;

/** Real browsers' user agents, one per kind of device (a phone, a tablet, a desktop), with the client hints they send. */
export const DEVICE_USER_AGENTS: Record<SessionDevice, { userAgent: string; hints?: Record<string, string> }> = {
  mobile: {
    userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  },
  tablet: {
    // Chromium on an Android tablet: no "Mobile" in its user agent, `Sec-CH-UA-Mobile: ?0` as a desktop's.
    userAgent: 'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    hints: { 'sec-ch-ua-mobile': '?0', 'sec-ch-ua-platform': '"Android"' },
  },
  desktop: {
    userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    hints: { 'sec-ch-ua-mobile': '?0', 'sec-ch-ua-platform': '"Windows"' },
  },
};

/**
 * The Web Vitals by kind of device (docs/vitals.md, "By device"): `metricCountsWithDays` and
 * `pages` with `device` read the samples of that device's sessions alone, the device parsed at ingest
 * from the user agent and client hints (core/clientOf.ts). Part of the store contract (store.contract.ts).
 *
 * @example
 * describeVitalsByDeviceContract(storeTest(() => ({ store, seed, reopen })));
 */
export const describeVitalsByDeviceContract = (test: StoreTest) =>
  describe('vitals by device', () => {
    const now = Date.UTC(2026, 5, 10, 12);
    const p75 = (list: number[]) => [...list].sort((x, y) => x - y)[p75Rank(list.length)]!;

    test('p75, counts, days and pages of one kind of device: mobile, tablet and desktop sessions apart, every session without device', async ({ store }) => {
      const lcp: Record<SessionDevice, number[]> = { mobile: [3000, 4500, 5200, 2600], tablet: [2100, 2300], desktop: [900, 1100, 1300, 1500, 4200] };
      let n = 0;
      for (const [device, values] of Object.entries(lcp) as Array<[SessionDevice, number[]]>) {
        const { userAgent, hints } = DEVICE_USER_AGENTS[device];
        const client = clientOf(userAgent, hints);
        expect(client.device).toBe(device);
        for (const [index, value] of values.entries()) {
          const session: PerformanceSession = {
            session_id: `s${n++}`,
            page_url: index % 2 ? 'https://shop.example/cart' : 'https://shop.example/',
            metrics: { LCP: { value } },
          };
          const receivedAt = now - (index % 2) * DAY;
          await store.performance.upsert(DEFAULT_SITE_KEY, session, { received_at: receivedAt, user_agent: userAgent, client });
          // A later submission of the session (its INP) keeps the device of its first.
          await store.performance.upsert(DEFAULT_SITE_KEY, { session_id: session.session_id, metrics: { INP: { value: value / 10 } } }, { received_at: receivedAt, user_agent: userAgent });
        }
      }
      // Stored before devices were parsed: counted with every session, with no device's.
      await store.performance.upsert(DEFAULT_SITE_KEY, { session_id: 'old', page_url: 'https://shop.example/', metrics: { LCP: { value: 100 } } }, { received_at: now });

      const thresholds = [2500, 4000] as const;
      const all = await store.performance.metricCountsWithDays(DEFAULT_SITE_KEY, { name: 'LCP', thresholds });
      expect(all.samples).toBe(12);
      for (const [device, values] of Object.entries(lcp) as Array<[SessionDevice, number[]]>) {
        const read = await store.performance.metricCountsWithDays(DEFAULT_SITE_KEY, { name: 'LCP', thresholds, device });
        const byDay = [values.filter((_, index) => index % 2 == 1), values.filter((_, index) => index % 2 == 0)];
        expect(read).toEqual({
          samples: values.length,
          good: values.filter((value) => value <= 2500).length,
          needs_improvement: values.filter((value) => value > 2500 && value <= 4000).length,
          poor: values.filter((value) => value > 4000).length,
          p75: p75(values),
          daily: [
            { day: Date.UTC(2026, 5, 9), samples: byDay[0]!.length, p75: p75(byDay[0]!) },
            { day: Date.UTC(2026, 5, 10), samples: byDay[1]!.length, p75: p75(byDay[1]!) },
          ],
        });
        const inp = await store.performance.metricCountsWithDays(DEFAULT_SITE_KEY, { name: 'INP', thresholds: [200, 500], device });
        expect(inp.p75).toBe(p75(values.map((value) => value / 10)));
        // Since today: yesterday's samples left out, the device's filter kept.
        const today = await store.performance.metricCountsWithDays(DEFAULT_SITE_KEY, { name: 'LCP', thresholds, device, since: Date.UTC(2026, 5, 10) });
        expect(today).toMatchObject({ samples: byDay[1]!.length, p75: p75(byDay[1]!) });

        const home = values.filter((_, index) => index % 2 == 0);
        const cart = values.filter((_, index) => index % 2 == 1);
        expect(await store.performance.pages(DEFAULT_SITE_KEY, { limit: 10, device })).toEqual([
          { route: '/', page_url: 'https://shop.example/', sessions: home.length, metrics: { LCP: { samples: home.length, p75: p75(home) }, INP: { samples: home.length, p75: p75(home.map((value) => value / 10)) } } },
          { route: '/cart', page_url: 'https://shop.example/cart', sessions: cart.length, metrics: { LCP: { samples: cart.length, p75: p75(cart) }, INP: { samples: cart.length, p75: p75(cart.map((value) => value / 10)) } } },
        ]);
      }
      // Every session without `device`, the old one too.
      const [home] = await store.performance.pages(DEFAULT_SITE_KEY, { limit: 1 });
      expect(home).toMatchObject({ page_url: 'https://shop.example/', sessions: 7 });
      expect(await store.performance.metricCountsWithDays(DEFAULT_SITE_KEY, { name: 'CLS', thresholds: [0.1, 0.25], device: 'mobile' })).toEqual({
        samples: 0, good: 0, needs_improvement: 0, poor: 0, p75: null, daily: [],
      });
    });
  });
