import type * as v from 'valibot';
import { buildDailySeries } from '../core/dailySeries';
import { VITALS_THRESHOLDS } from '../core/vitals';
import type { DailyViewSchema } from '../schemas/answers/readViews';
import type { Store } from '../store/contract';
import { countedDaily } from './countedErrors';
import { rangeOf } from './range';

/**
 * `GET /api/v1/sites/{site_key}/daily`: per UTC day since `since` (default 30 days) the counted
 * errors and occurrences (countedErrors.ts), CSP violations, page views, and with `p75` each
 * metric's p75 (the costly part).
 *
 * @example
 * const { days } = await readDaily(store, site, { since: undefined, p75: false });
 */
export const readDaily = async (
  store: Store,
  { site_key }: { site_key: string },
  query: { since?: number | undefined; p75: boolean },
  { now = Date.now() }: { now?: number } = {},
): Promise<v.InferInput<typeof DailyViewSchema>> => {
  const { since, iso } = rangeOf(query.since, now, 30);
  const [errors, csp, pageViews, ...metrics] = await Promise.all([
    countedDaily(store, site_key, { since }),
    store.csp.daily(site_key, { since }),
    store.performance.daily(site_key, { since }),
    ...(query.p75 ? [...VITALS_THRESHOLDS.keys()] : []).map(async (name) => [name, await store.performance.metricDaily(site_key, { name, since })] as const),
  ]);
  return { site_key, since: iso, days: buildDailySeries({ since, now, errors, csp, pageViews, p75: new Map(metrics) }) };
};
