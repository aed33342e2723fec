import type * as v from 'valibot';
import { fillDays } from '../core/dailySeries';
import { metricSummaryOf } from '../core/summary';
import { rateMetric, VITALS_THRESHOLDS } from '../core/vitals';
import type { VitalsViewSchema } from '../schemas/answers/readViews';
import type { Store } from '../store/contract';
import type { SessionDevice } from '../store/contract/performanceSessions';
import { rangeOf } from './range';

/**
 * `GET /api/v1/sites/{site_key}/vitals`: per Web Vital since `since` (default 7 days) its samples,
 * p75 and rating, the good / needs-improvement / poor shares and the p75 per UTC day (null without
 * samples). One store read per metric gives both the counts and the days. With `device`, of the
 * sessions of that kind of device alone (docs/vitals.md, "By device"); with `route`, of that
 * route's (docs/vitals.md, "Routes").
 *
 * @example
 * const { vitals } = await readVitals(store, site, { since: undefined });
 */
export const readVitals = async (
  store: Store,
  { site_key }: { site_key: string },
  query: { since?: number | undefined; device?: SessionDevice | undefined; route?: string | undefined },
  { now = Date.now() }: { now?: number } = {},
): Promise<v.InferInput<typeof VitalsViewSchema>> => {
  const { since, iso } = rangeOf(query.since, now, 7);
  const read = await Promise.all(
    [...VITALS_THRESHOLDS].map(async ([name, thresholds]) => [name, await store.performance.metricCountsWithDays(site_key, { name, thresholds, since, device: query.device, route: query.route })] as const),
  );
  const vitals = read.map(([name, { daily, ...counts }]) => {
    const summary = metricSummaryOf(counts);
    return [
      name,
      {
        ...summary,
        rating: summary.p75 === null ? null : rateMetric(name, summary.p75)!,
        daily: fillDays<{ day: number; samples: number; p75: number | null }>(since, now, daily, { samples: 0, p75: null }),
      },
    ] as const;
  });
  return { site_key, since: iso, device: query.device ?? null, route: query.route ?? null, vitals: Object.fromEntries(vitals) };
};
