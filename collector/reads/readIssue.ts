import type * as v from 'valibot';
import type { IssueSchema } from '../schemas/answers/issueAnswers';
import type { IssueState } from '../store/contract/issues';
import { countedBotReports, isCountedIssue } from './countedErrors';
import { issueItemOf, issueRangeOf, pageViewsIn, resourceOf, trendsOf, type IssueFilterQuery, type IssueRange, type IssueReads } from './issueViews';

/**
 * One issue's counts over the range. The store's contract has no one-issue form of its list's
 * counts, so: occurrences are its trend's (filtered, from the range's start exactly: a sum of
 * buckets covers the range whatever their alignment), visitors and page views the error store's
 * for the fingerprint since the range's start (all of its reports: the report filters apply to the
 * list and the trend).
 */
const countsOf = async (store: IssueReads, siteKey: string, fingerprint: string, range: IssueRange) => {
  const { since, until, filter } = range;
  const [trend, visitors, pageViews] = await Promise.all([
    store.issues.trends(siteKey, [fingerprint], { ...filter, since, until, bucketMs: 86_400_000 }),
    store.errors.visitors(siteKey, { fingerprint, since }),
    store.errors.sessions(siteKey, { fingerprint, since }),
  ]);
  const occurrences = (trend.get(fingerprint) ?? []).reduce((total, count) => total + count, 0);
  return { occurrences, visitors, page_views: pageViews };
};

/**
 * An issue as `GET`, and `PATCH` after the change, answer it: the list's item over the range (last
 * 14 days unless asked), and what its owner set.
 *
 * @example
 * const answer = await issueAnswerOf(store, 'k', state, {}, Date.now());
 */
export const issueAnswerOf = async (
  store: IssueReads,
  siteKey: string,
  issue: IssueState,
  query: IssueFilterQuery,
  now: number,
): Promise<v.InferInput<typeof IssueSchema>> => {
  const range = issueRangeOf(query, now);
  const [counts, pageViews, { of }, resource, botReports] = await Promise.all([
    countsOf(store, siteKey, issue.fingerprint, range),
    pageViewsIn(store, siteKey, range),
    trendsOf(store, siteKey, [issue.fingerprint], range),
    resourceOf(store, siteKey, issue),
    countedBotReports(store, siteKey, { ...range.filter, status: 'all', fingerprint: issue.fingerprint }),
  ]);
  return {
    ...issueItemOf(issue, { counts, pageViews, trend: of(issue.fingerprint), resource, now }),
    since: new Date(range.since).toISOString(),
    until: new Date(range.until).toISOString(),
    resolved_in: issue.resolved_in,
    ignore_until_count: issue.ignore_until_count,
    ignore_until: issue.ignore_until === null ? null : new Date(issue.ignore_until).toISOString(),
    bot_reports: botReports,
  };
};

/**
 * The stored state of one of the site's issues, or undefined for a fingerprint the site has no
 * report of, or one of `sitebeacon check`'s (no issue: reads/countedErrors.ts).
 *
 * @example
 * const state = await countedIssueState(store, 'k', '9f2c…');
 */
export const countedIssueState = async (store: IssueReads, siteKey: string, fingerprint: string) => {
  const state = await store.issues.get(siteKey, fingerprint);
  return state && isCountedIssue(state) ? state : undefined;
};

/**
 * `GET /api/v1/sites/{site_key}/issues/{fingerprint}` (docs/issues.md): the issue, or undefined
 * when it is none of the site's.
 *
 * @example
 * const issue = await readIssue(store, site, { fingerprint: '9f2c…' });
 */
export const readIssue = async (
  store: IssueReads,
  { site_key }: { site_key: string },
  query: IssueFilterQuery & { fingerprint: string },
  { now = Date.now() }: { now?: number } = {},
) => {
  const state = await countedIssueState(store, site_key, query.fingerprint);
  return state && issueAnswerOf(store, site_key, state, query, now);
};
