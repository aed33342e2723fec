import type * as v from 'valibot';
import { buildSummary, type MetricCounts } from '../core/summary';
import { VITALS_THRESHOLDS } from '../core/vitals';
import type { SummaryViewSchema } from '../schemas/answers/readViews';
import type { Store } from '../store/contract';
import { countedGroups } from './countedErrors';

/**
 * `GET /api/v1/sites/{site_key}/summary`: the counted error groups (countedErrors.ts), CSP groups,
 * and per metric the counts against web-vitals' thresholds as shares and p75 (core/summary.ts),
 * since `since` (all time without it), at most `limit` groups of each.
 *
 * @example
 * const summary = await readSummary(store, site, { since: Date.now() - 7 * 86_400_000, limit: 50 });
 */
export const readSummary = async (
  store: Store,
  { site_key }: { site_key: string },
  { since, limit }: { since?: number | undefined; limit?: number | undefined } = {},
): Promise<v.InferInput<typeof SummaryViewSchema>> => {
  const metrics = new Map<string, MetricCounts>();
  for (const [name, thresholds] of VITALS_THRESHOLDS) {
    metrics.set(name, await store.performance.metricCounts(site_key, { name, thresholds, since }));
  }
  const [errorGroups, cspGroups] = await Promise.all([countedGroups(store, site_key, { since, limit }), store.csp.groups(site_key, { since, limit })]);
  return { site_key, since: since === undefined ? null : new Date(since).toISOString(), ...buildSummary({ errorGroups, cspGroups, metrics }) };
};
