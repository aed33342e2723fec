import { UNCOUNTED_ERROR_TYPES } from '../core/countedErrors';
import { explainedLoads } from '../core/countedOnce';
import type { GroupOptions, Store } from '../store/contract';
import type { IssueBotReportOptions, IssueListOptions, IssueStore } from '../store/contract/issues';

/** At most this many groups of uncounted reports (`sitebeacon check`'s) are read to take them out of a series. */
const MAX_UNCOUNTED_GROUPS = 100;

/**
 * A site's error groups as the read views count them: without the uncounted error types
 * (core/countedErrors.ts: `sitebeacon check`'s connectivity checks, README "Connectivity
 * diagnosis"), which the store leaves out itself. Every view that lists error groups reads them here.
 *
 * @example
 * const rows = await countedGroups(store, 'k', { since, limit: 20 });
 */
export const countedGroups = (store: Store, siteKey: string, options: GroupOptions) =>
  store.errors.groups(siteKey, { ...options, excludeTypes: UNCOUNTED_ERROR_TYPES });

/**
 * The groups the read views leave out of their counts (`sitebeacon check`'s connectivity checks)
 * since `since`: the setup view shows the last of them, the daily series subtracts them.
 *
 * @example
 * const checks = await uncountedGroups(store, 'k', { since });
 */
export const uncountedGroups = (store: Store, siteKey: string, { since }: { since: number }) =>
  store.errors.groups(siteKey, { since, types: UNCOUNTED_ERROR_TYPES, limit: MAX_UNCOUNTED_GROUPS });

/** Rows per day or hour less the same rows of the uncounted groups (a fingerprint is of one error type, core/fingerprint.ts: a group is all counted or all not). */
const lessUncounted = async <K extends 'day' | 'hour', R extends Record<K, number> & { reports: number; count: number }>(
  key: K,
  rows: R[],
  uncounted: Array<{ fingerprint: string }>,
  readGroup: (fingerprint: string) => Promise<R[]>,
) => {
  if (!uncounted.length) return rows;
  const byKey = new Map(rows.map((row) => [row[key], { ...row }]));
  for (const group of uncounted) {
    for (const row of await readGroup(group.fingerprint)) {
      const total = byKey.get(row[key]);
      if (!total) continue;
      total.reports -= row.reports;
      total.count -= row.count;
    }
  }
  return [...byKey.values()].filter((row) => row.reports > 0);
};

/** Whose errors a series counts: without known bots' unless the read includes them (docs/issues.md, "Bots"). */
type SeriesOptions = { since: number; withoutBots: boolean };

/**
 * A site's errors per UTC day as the read views count them: the store's days less the days of the
 * uncounted groups, bots' reports left out with `withoutBots`. The site page's activity total then
 * equals its error groups' total (bots included) or its issues' (bots left out).
 *
 * @example
 * const days = await countedDaily(store, 'k', { since, withoutBots: true });
 */
export const countedDaily = async (store: Store, siteKey: string, { since, withoutBots }: SeriesOptions) => {
  const [days, uncounted] = await Promise.all([store.errors.daily(siteKey, { since, withoutBots }), uncountedGroups(store, siteKey, { since })]);
  return lessUncounted('day', days, uncounted, (fingerprint) => store.errors.daily(siteKey, { since, fingerprint, withoutBots }));
};

/**
 * A site's errors per UTC hour since `since` as the read views count them, as countedDaily: the
 * site page's 24 hours (core/activitySeries.ts).
 *
 * @example
 * const hours = await countedHourly(store, 'k', { since: Date.now() - 86_400_000, withoutBots: true });
 */
export const countedHourly = async (store: Store, siteKey: string, { since, withoutBots }: SeriesOptions) => {
  const [hours, uncounted] = await Promise.all([store.errors.hourly(siteKey, { since, withoutBots }), uncountedGroups(store, siteKey, { since })]);
  return lessUncounted('hour', hours, uncounted, (fingerprint) => store.errors.hourly(siteKey, { since, fingerprint, withoutBots }));
};

/** At most this many failed loads, and as many violations, are read to count a blocked load once. */
export const BLOCKED_LOADS_READ = 20_000;

/**
 * The failed loads since `since` that a CSP violation explains (core/countedOnce.ts): what a total
 * adding errors and CSP violations counts once, as the violation (docs/issues.md, "A resource a
 * CSP blocked"). Bounded: the first BLOCKED_LOADS_READ of each.
 *
 * @example
 * const explained = await blockedLoads(store, 'k', { since });
 */
export const blockedLoads = async (store: Store, siteKey: string, { since }: { since: number }) => {
  const { loads, violations } = await store.errors.blockedLoads(siteKey, { since, limit: BLOCKED_LOADS_READ });
  return explainedLoads(loads, violations);
};

/**
 * A site's issues as the issues API lists them: without the uncounted error types' groups
 * (`sitebeacon check`'s connectivity checks, docs/issues.md "Connectivity checks are left out"),
 * which the store leaves out itself.
 *
 * @example
 * const { rows } = await countedIssues(store, 'k', { status: 'unresolved', sort: 'last_seen', limit: 25 });
 */
export const countedIssues = (store: { issues: IssueStore }, siteKey: string, options: IssueListOptions) =>
  store.issues.list(siteKey, { ...options, excludeTypes: UNCOUNTED_ERROR_TYPES });

/**
 * How many reports of known bots an issues read left out (docs/issues.md, "Bots"), of the issues
 * it lists: never a connectivity check's. 0 when the read includes bots: none was left out.
 *
 * @example
 * const uncounted = await countedBotReports(store, 'k', { status: 'unresolved', since, until });
 */
export const countedBotReports = async (store: { issues: IssueStore }, siteKey: string, options: IssueBotReportOptions & { includeBots?: boolean | undefined }) =>
  options.includeBots ? 0 : store.issues.botReports(siteKey, { ...options, excludeTypes: UNCOUNTED_ERROR_TYPES });

/**
 * Whether an issue is one of the site's errors: not an uncounted type's group (those are no issue
 * to read or change by fingerprint either).
 *
 * @example
 * isCountedIssue({ error_type: 'connectivity_check' }) // false
 */
export const isCountedIssue = (issue: { error_type: string }) => !UNCOUNTED_ERROR_TYPES.includes(issue.error_type);
