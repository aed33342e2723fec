import { UNCOUNTED_ERROR_TYPES } from '../core/countedErrors';
import { buildSummary, type MetricCounts, type Summary } from '../core/summary';
import { VITALS_THRESHOLDS } from '../core/vitals';
import type { GroupOptions, Store } from './contract';

/**
 * A site's summary from any store: what the store counts (error and CSP groups, per-metric counts
 * against web-vitals' thresholds), built into shares and ISO times by core/summary.ts. Test reports
 * (core/countedErrors.ts) are not counted. The read
 * API's `/summary` and the dashboard both read it here.
 *
 * @example
 * const summary = await readSummary(store, 'default', { since: Date.now() - 7 * 86_400_000, limit: 50 });
 */
export const readSummary = async (store: Store, siteKey: string, { since, limit }: GroupOptions = {}): Promise<Summary> => {
  const metrics = new Map<string, MetricCounts>();
  for (const [name, thresholds] of VITALS_THRESHOLDS) {
    metrics.set(name, await store.performance.metricCounts(siteKey, { name, thresholds, since }));
  }
  const [errorGroups, cspGroups] = await Promise.all([store.errors.groups(siteKey, { since, limit, excludeTypes: UNCOUNTED_ERROR_TYPES }), store.csp.groups(siteKey, { since, limit })]);
  return buildSummary({ errorGroups, cspGroups, metrics });
};
