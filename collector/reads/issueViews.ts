import type * as v from 'valibot';
import { statusAt } from '../core/issueLifecycle';
import { issueTitle } from '../core/issueTitle';
import { pageViewsShare } from '../core/pageViewsShare';
import { COPY_WINDOW_MS } from '../core/cspCopies';
import { explainingViolation } from '../core/cspExplains';
import { trendBuckets } from '../core/trendBuckets';
import type { IssueListItemSchema } from '../schemas/answers/issueAnswers';
import type { Store } from '../store/contract';
import type { IssueReportFilter, IssueState, IssueStore } from '../store/contract/issues';
import { rangeOf } from './range';

/**
 * What the issues views read: the issues, the reports (a resource's URL), the performance sessions
 * (page views) and the source maps (events' frames).
 */
export type IssueReads = Pick<Store, 'errors' | 'csp' | 'performance' | 'sourceMaps'> & { issues: IssueStore };

/** The range and report filters of an issues query (schemas/issueQuery.ts), as parsed: the store's filter, with bots by name. */
export type IssueFilterQuery = Omit<IssueReportFilter, 'includeBots'> & { bots?: 'exclude' | 'include' | undefined };

/** An issues view's range and the filter of the reports it counts. */
export interface IssueRange {
  since: number;
  until: number;
  filter: IssueReportFilter & { since: number; until: number };
}

/** The issues views' range when none is asked: two weeks (docs/issues.md, "The API"). */
export const DEFAULT_ISSUE_DAYS = 14;

/**
 * The range (reads/range.ts: at most a series' length back from its end) and the report filter of
 * an issues query: `until` defaults to `now`; bots are left out unless `bots=include`.
 *
 * @example
 * issueRangeOf({ bots: 'include' }, Date.now()).filter.includeBots // true
 */
export const issueRangeOf = (query: IssueFilterQuery, now: number): IssueRange => {
  const until = query.until ?? now;
  const { since } = rangeOf(query.since, until, DEFAULT_ISSUE_DAYS);
  const { page, browser, os, device, release, environment } = query;
  return { since, until, filter: { since, until, page, browser, os, device, release, environment, includeBots: query.bots == 'include' } };
};

/**
 * The site's page views in the range: performance sessions begun per UTC day (the first day from
 * `since`), the days up to `until`'s. The denominator of `page_views_share`.
 *
 * @example
 * const views = await pageViewsIn(store, 'k', range);
 */
export const pageViewsIn = async (store: IssueReads, siteKey: string, { since, until }: { since: number; until: number }) => {
  const days = await store.performance.daily(siteKey, { since });
  return days.filter(({ day }) => day <= until).reduce((total, { sessions }) => total + sessions, 0);
};

/** The CSP violations read around a failed load to find the one that explains it: a bounded read. */
const VIOLATIONS_READ = 500;

/** A resource issue's failed load and the CSP violation that explains it (docs/issues.md, "A resource a CSP blocked"). */
export interface ResourceOf {
  sourceUrl: string | undefined;
  cspViolation: v.InferInput<typeof IssueListItemSchema>['csp_violation'];
}

/**
 * What a resource error's issue shows of its failed load, from its latest report (a resource
 * issue's reports share their URL, less its query: core/fingerprint.ts): the URL its title names,
 * and the CSP violation that explains it (core/cspExplains.ts), looked for among the site's first
 * VIOLATIONS_READ violations from COPY_WINDOW_MS before it. Other issues need neither.
 *
 * @example
 * const { sourceUrl, cspViolation } = await resourceOf(store, 'k', issue);
 */
export const resourceOf = async (store: IssueReads, siteKey: string, issue: IssueState): Promise<ResourceOf> => {
  if (issue.error_type != 'resource_error') return { sourceUrl: undefined, cspViolation: null };
  const latest = await store.errors.latest(siteKey, issue.fingerprint);
  // No URL or no page: no violation could name it, nothing more to read.
  if (!latest?.source_url || !latest.page_url) return { sourceUrl: latest?.source_url, cspViolation: null };
  const at = Date.parse(latest.received_at);
  const { data } = await store.csp.list(siteKey, { since: at - COPY_WINDOW_MS, limit: VIOLATIONS_READ });
  const violations = data.map((report) => ({ ...report, report_type: report.report_type ?? '', received_at: Date.parse(report.received_at) }));
  const found = explainingViolation({ ...latest, received_at: at }, violations);
  return {
    sourceUrl: latest.source_url,
    cspViolation: found
      ? { directive: found.effective_directive!, blocked_url: found.blocked_uri ?? '', received_at: new Date(found.received_at).toISOString() }
      : null,
  };
};

/**
 * Occurrences per bucket of an issue's trend (core/trendBuckets.ts) for `fingerprints`, each filled
 * to the buckets' length. The first bucket counts its whole hour or day.
 *
 * @example
 * const { trend, of } = await trendsOf(store, 'k', ['9f2c…'], range);
 */
export const trendsOf = async (store: IssueReads, siteKey: string, fingerprints: readonly string[], { filter, since, until }: IssueRange) => {
  const trend = trendBuckets(since, until);
  const counts = fingerprints.length
    ? await store.issues.trends(siteKey, fingerprints, { ...filter, since: trend.start, until, bucketMs: trend.bucketMs })
    : new Map<string, number[]>();
  const of = (fingerprint: string): v.InferInput<typeof IssueListItemSchema>['trend'] => ({
    interval: trend.interval,
    buckets: trend.buckets.map((bucket, index) => ({
      start: new Date(bucket.start).toISOString(),
      count: counts.get(fingerprint)?.[index] ?? 0,
      incomplete: bucket.incomplete,
    })),
  });
  return { trend, of };
};

/** The range's counts of one issue, as a list row has them. */
export interface IssueCounts {
  occurrences: number;
  visitors: number;
  page_views: number;
}

/**
 * An issue as the list shows it: its title, its status at `now` (core/issueLifecycle.ts
 * `statusAt`: an ignore whose time has passed reads unresolved), all-time seen times and the
 * range's counts.
 *
 * @example
 * const item = issueItemOf(row, { counts: row, pageViews: 1200, trend, resource: { sourceUrl: undefined, cspViolation: null }, now });
 */
export const issueItemOf = (
  issue: IssueState,
  { counts, pageViews, trend, resource, now }: { counts: IssueCounts; pageViews: number; trend: v.InferInput<typeof IssueListItemSchema>['trend']; resource: ResourceOf; now: number },
): v.InferInput<typeof IssueListItemSchema> => ({
  fingerprint: issue.fingerprint,
  ...issueTitle({ ...issue, source_url: resource.sourceUrl }),
  type: issue.error_type,
  status: statusAt(issue, now),
  regressed: issue.regressed,
  first_seen: new Date(issue.first_seen).toISOString(),
  last_seen: new Date(issue.last_seen).toISOString(),
  first_release: issue.first_release,
  last_release: issue.last_release,
  occurrences: counts.occurrences,
  visitors: counts.visitors,
  page_views_share: pageViewsShare(counts.page_views, pageViews),
  trend,
  csp_violation: resource.cspViolation,
});
