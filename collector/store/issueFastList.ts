import { decodeKeyCursor } from '../core/cursor';
import type { IssueListOptions } from './contract/issues';
import { builder, byFingerprint, issueWhere, reportWhere, type BuiltQuery, type Dialect } from './issueQueries';

const DAY = 86_400_000;

/** The whole UTC days inside `since..until` (both included), or undefined when none is. */
const wholeDaysOf = (since: number, until: number) => {
  const first = Math.ceil(since / DAY);
  const last = Math.floor((until + 1) / DAY) - 1;
  return first <= last ? { first, last } : undefined;
};

/**
 * Whether the issues' list can count from the per-day `error_groups` (docs/issues.md, "The list at a
 * million reports"): no filter on a report's fields but bots, a sort that is not by visitors, and at
 * least one whole UTC day in the range.
 *
 * @example
 * fastListApplies({ status: 'unresolved', sort: 'last_seen', limit: 25, since, until }) // true for a 14-day range
 */
export const fastListApplies = (options: IssueListOptions) => {
  const { page, browser, os, device, release, environment, since, until } = options;
  if ([page, browser, os, device, release, environment].some((value) => value !== undefined)) return false;
  if (options.sort == 'visitors' || since === undefined || until === undefined) return false;
  return wholeDaysOf(since, until) !== undefined;
};

const SORTS = { last_seen: 'i.last_seen', first_seen: 'i.first_seen', occurrences: 'hits.occurrences' } as const;

/**
 * The issues' list as issueQueries.ts `issueListQuery` gives it, but its reports and occurrences
 * counted from `error_groups` over the range's whole days, with the reports of its partial first
 * and last days read from `error_reports` and, unless bots are included, the bots' reports of the
 * whole days taken back out (their partial index: sqlite/issueSchema.ts). Its rows carry no
 * visitors nor page views: `issuePageCountsQuery` counts them for the page's rows only. Only when
 * `fastListApplies`.
 */
export const issueFastListQuery = (dialect: Dialect, siteKey: string, options: IssueListOptions, now: number): BuiltQuery => {
  const { values, param } = builder(dialect);
  const since = options.since!;
  const until = options.until!;
  const { first, last } = wholeDaysOf(since, until)!;
  const parts = [`SELECT g.fingerprint, g.reports, g.count AS occurrences FROM error_groups g
    WHERE g.site_key = ${param(siteKey)} AND g.day >= ${param(first)} AND g.day <= ${param(last)}`];
  if (!options.includeBots) {
    parts.push(`SELECT r.fingerprint, -COUNT(*), -SUM(coalesce(r.count, 1)) FROM error_reports r ${dialect == 'sqlite' ? 'INDEXED BY error_reports_of_bots' : ''}
      WHERE r.site_key = ${param(siteKey)} AND r.bot = 1 AND r.received_at >= ${param(first * DAY)} AND r.received_at < ${param((last + 1) * DAY)}
      GROUP BY r.fingerprint`);
  }
  const edges = [
    { since, until: first * DAY - 1 },
    { since: (last + 1) * DAY, until },
  ].filter((edge) => edge.since <= edge.until);
  for (const edge of edges) {
    parts.push(`SELECT r.fingerprint, COUNT(*), SUM(coalesce(r.count, 1)) FROM error_reports r ${dialect == 'sqlite' ? 'INDEXED BY error_reports_for_issues' : ''}
      WHERE ${reportWhere(param, siteKey, { ...edge, includeBots: options.includeBots })} GROUP BY r.fingerprint`);
  }
  const terms = [`i.site_key = ${param(siteKey)}`, 'i.fingerprint = hits.fingerprint', ...issueWhere(param, siteKey, options, now)];
  const sort = SORTS[options.sort as keyof typeof SORTS];
  const after = options.cursor === undefined ? undefined : decodeKeyCursor(options.cursor);
  const collate = byFingerprint(dialect);
  if (after) terms.push(`(${sort} < ${param(after.key)} OR (${sort} = ${param(after.key)} AND i.fingerprint ${collate} > ${param(after.id)}))`);
  const text = `WITH parts (fingerprint, reports, occurrences) AS (${parts.join(' UNION ALL ')}),
    hits AS (SELECT fingerprint, SUM(reports) AS reports, SUM(occurrences) AS occurrences FROM parts GROUP BY fingerprint HAVING SUM(reports) > 0)
    SELECT i.*, hits.reports, hits.occurrences FROM hits JOIN issues i ON ${terms.join(' AND ')}
    ORDER BY ${sort} DESC, i.fingerprint ${collate} LIMIT ${param(options.limit + 1)}`;
  return { text, values };
};

/**
 * Distinct (UTC day, visitor) pairs and distinct page views of these fingerprints' reports in the
 * list's range (bots out unless included), as `issueListQuery` counts them: for the page's rows of
 * the fast list, through the index by fingerprint and time (sqlite/issueSchema.ts).
 */
export const issuePageCountsQuery = (dialect: Dialect, siteKey: string, fingerprints: readonly string[], options: IssueListOptions): BuiltQuery => {
  const { values, param } = builder(dialect);
  const where = `${reportWhere(param, siteKey, options)} AND r.fingerprint IN (${fingerprints.map(param).join(', ')})`;
  return {
    text: `SELECT r.fingerprint,
        COUNT(DISTINCT CASE WHEN r.visitor IS NOT NULL THEN CAST(r.received_at / ${DAY} AS TEXT) || ':' || r.visitor END) AS visitors,
        COUNT(DISTINCT r.session_id) AS page_views
      FROM error_reports r ${dialect == 'sqlite' ? 'INDEXED BY error_reports_by_fingerprint_time' : ''} WHERE ${where} GROUP BY r.fingerprint`,
    values,
  };
};

/**
 * The fast list's rows with each one's visitors and page views (zero where it has none in range).
 *
 * @example
 * withPageCounts(rows, [{ fingerprint: 'f', visitors: 3, page_views: 4 }])
 */
export const withPageCounts = (rows: Array<Record<string, unknown>>, counts: Array<Record<string, unknown>>) => {
  const byFingerprint = new Map(counts.map((row) => [row.fingerprint, row]));
  return rows.map((row) => {
    const found = byFingerprint.get(row.fingerprint);
    return { ...row, visitors: Number(found?.visitors ?? 0), page_views: Number(found?.page_views ?? 0) };
  });
};
