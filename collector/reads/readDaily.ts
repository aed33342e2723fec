import type * as v from 'valibot';
import { activityTotals, buildHourlySeries, previousTotals } from '../core/activitySeries';
import { lessExplainedLoads } from '../core/countedOnce';
import { buildDailySeries } from '../core/dailySeries';
import { trendBuckets } from '../core/trendBuckets';
import { VITALS_THRESHOLDS } from '../core/vitals';
import type { DailyViewSchema } from '../schemas/answers/readViews';
import type { Store } from '../store/contract';
import { blockedLoads, countedDaily, countedHourly } from './countedErrors';
import { rangeOf } from './range';

type Explained = Awaited<ReturnType<typeof blockedLoads>>;
/** Whose errors count, and the failed loads counted as violations: read once, beside the counts that take them out. */
type Counting = { withoutBots: boolean; explained: Promise<Explained> };

/**
 * A site's counted activity since `since` per UTC day: errors (countedErrors.ts) less the failed
 * loads a CSP violation explains (counted once, as the violation: core/countedOnce.ts), CSP
 * violations, page views.
 */
const dailyActivity = async (store: Store, siteKey: string, since: number, { withoutBots, explained }: Counting) => {
  const [errors, csp, pageViews, explainedLoads] = await Promise.all([
    countedDaily(store, siteKey, { since, withoutBots }),
    store.csp.daily(siteKey, { since }),
    store.performance.daily(siteKey, { since }),
    explained,
  ]);
  return [lessExplainedLoads('day', errors, explainedLoads, { since, withoutBots }), csp, pageViews] as const;
};

/** The same per UTC hour, for a range of 48 hours or less (core/trendBuckets.ts); null beyond. */
const hourlyActivity = async (store: Store, siteKey: string, since: number, now: number, { withoutBots, explained }: Counting) => {
  if (trendBuckets(since, now).interval != 'hour') return null;
  const [errors, csp, pageViews, explainedLoads] = await Promise.all([
    countedHourly(store, siteKey, { since, withoutBots }),
    store.csp.hourly(siteKey, { since }),
    store.performance.hourly(siteKey, { since }),
    explained,
  ]);
  return buildHourlySeries({ since, now, errors: lessExplainedLoads('hour', errors, explainedLoads, { since, withoutBots }), csp, pageViews });
};

/**
 * `GET /api/v1/sites/{site_key}/daily`: per UTC day since `since` (default 30 days) the counted
 * errors and occurrences (countedErrors.ts), CSP violations, page views, and with `p75` each
 * metric's p75 (the costly part); per UTC hour too when the range is 48 hours or less; and the
 * totals of the previous range of the same length (docs/dashboard.md, "Pages and ranges"). Known
 * bots' errors are left out unless `bots` is `include` (docs/issues.md, "Bots").
 *
 * @example
 * const { days, hours, previous } = await readDaily(store, site, { since: undefined, p75: false });
 */
export const readDaily = async (
  store: Store,
  { site_key }: { site_key: string },
  query: { since?: number | undefined; p75: boolean; bots?: 'exclude' | 'include' | undefined },
  { now = Date.now() }: { now?: number } = {},
): Promise<v.InferInput<typeof DailyViewSchema>> => {
  const { since, iso } = rangeOf(query.since, now, 30);
  const earlier = since - (now - since);
  const counting = { withoutBots: query.bots != 'include', explained: blockedLoads(store, site_key, { since: earlier }) };
  const [[errors, csp, pageViews], [earlierErrors, earlierCsp, earlierViews], hours, ...metrics] = await Promise.all([
    dailyActivity(store, site_key, since, counting),
    dailyActivity(store, site_key, earlier, counting),
    hourlyActivity(store, site_key, since, now, counting),
    ...(query.p75 ? [...VITALS_THRESHOLDS.keys()] : []).map(async (name) => [name, await store.performance.metricDaily(site_key, { name, since })] as const),
  ]);
  const totals = activityTotals({ errors, csp, pageViews });
  return {
    site_key,
    since: iso,
    until: new Date(now).toISOString(),
    days: buildDailySeries({ since, now, errors, csp, pageViews, p75: new Map(metrics) }),
    hours,
    totals,
    previous: {
      since: new Date(earlier).toISOString(),
      until: iso,
      ...previousTotals(activityTotals({ errors: earlierErrors, csp: earlierCsp, pageViews: earlierViews }), totals),
    },
  };
};
