import { decodeKeyCursor } from '../core/cursor';
import type { IssueListOptions } from './contract/issues';
import { ISSUE_DAY_FIELD_NAMES } from './issueDays';
import { builder, byFingerprint, issueWhere, reportWhere, type BuiltQuery, type Dialect } from './issueQueries';

const DAY = 86_400_000;

/** The whole UTC days inside `since..until` (both included), or undefined when none is. */
const wholeDaysOf = (since: number, until: number) => {
  const first = Math.ceil(since / DAY);
  const last = Math.floor((until + 1) / DAY) - 1;
  return first <= last ? { first, last } : undefined;
};

/** The report fields a list filters by (store/issueDays.ts). */
const fieldFiltersOf = (options: IssueListOptions) => ISSUE_DAY_FIELD_NAMES.filter((field) => options[field] !== undefined);

/**
 * Whether the issues' list can count from its per-day counts (docs/issues.md, "The list at a
 * million reports"): at least one whole UTC day in the range, and at most one filter on a report's
 * field. Bots included, only from the per-day `error_groups` (no filter, not by visitors): the
 * per-day counts are of people's reports. Sorted by visitors, no filter: visitors are kept per
 * issue and day, not per field value. Any other list counts every report of its range.
 *
 * @example
 * fastListApplies({ status: 'unresolved', sort: 'last_seen', limit: 25, since, until, os: 'iOS' }) // true for a 14-day range
 */
export const fastListApplies = (options: IssueListOptions) => {
  const { since, until } = options;
  if (since === undefined || until === undefined || wholeDaysOf(since, until) === undefined) return false;
  const fields = fieldFiltersOf(options);
  if (fields.length > 1) return false;
  if (options.includeBots) return fields.length == 0 && options.sort != 'visitors';
  return fields.length == 0 || options.sort != 'visitors';
};

const SORTS = { last_seen: 'i.last_seen', first_seen: 'i.first_seen', occurrences: 'hits.occurrences', visitors: 'hits.visitors' } as const;

/**
 * The issues' list as issueQueries.ts `issueListQuery` gives it, counted per day over the range's
 * whole days and from `error_reports` for its partial first and last days: people's reports from
 * `issue_day_counts`, the issue's own rows (with its visitors of each day: distinct (day, visitor)
 * pairs of different days never coincide, so they add up) or the rows of the one field value
 * filtered by; bots included, every report from the per-day `error_groups`. Its rows carry
 * visitors only when sorted by them, and no page views: `issuePageCountsQuery` counts both for the
 * page's rows. Only when `fastListApplies`.
 */
export const issueFastListQuery = (dialect: Dialect, siteKey: string, options: IssueListOptions, now: number): BuiltQuery => {
  const { values, param } = builder(dialect);
  const since = options.since!;
  const until = options.until!;
  const { first, last } = wholeDaysOf(since, until)!;
  const field = fieldFiltersOf(options)[0];
  const parts: string[] = [];
  if (options.includeBots) {
    parts.push(`SELECT g.fingerprint, g.reports, g.count, 0 FROM error_groups g
      WHERE g.site_key = ${param(siteKey)} AND g.day >= ${param(first)} AND g.day <= ${param(last)}`);
  } else {
    const value = field === undefined ? '' : options[field]!;
    // PostgreSQL finds a value by its md5 (postgres/issueSchema.ts), then compares the value itself.
    const byValue = dialect == 'postgres' ? `md5(c.value) = md5(${param(value)}::text) AND ` : '';
    parts.push(`SELECT c.fingerprint, c.reports, c.occurrences, c.visitors FROM issue_day_counts c
      WHERE c.site_key = ${param(siteKey)} AND c.field = ${param(field ?? '')} AND ${byValue}c.value = ${param(value)}
        AND c.day >= ${param(first)} AND c.day <= ${param(last)}`);
  }
  const edges = [
    { since, until: first * DAY - 1 },
    { since: (last + 1) * DAY, until },
  ].filter((edge) => edge.since <= edge.until);
  // An edge lies inside one day: its distinct visitors are its (day, visitor) pairs.
  const visitors = options.sort == 'visitors' ? 'COUNT(DISTINCT r.visitor)' : '0';
  for (const edge of edges) {
    parts.push(`SELECT r.fingerprint, COUNT(*), SUM(coalesce(r.count, 1)), ${visitors} FROM error_reports r ${dialect == 'sqlite' ? 'INDEXED BY error_reports_for_issues' : ''}
      WHERE ${reportWhere(param, siteKey, { ...options, ...edge })} GROUP BY r.fingerprint`);
  }
  const site = param(siteKey);
  const terms = issueWhere(param, siteKey, options, now);
  const sort = SORTS[options.sort];
  const after = options.cursor === undefined ? undefined : decodeKeyCursor(options.cursor);
  const collate = byFingerprint(dialect);
  if (after) terms.push(`(${sort} < ${param(after.key)} OR (${sort} = ${param(after.key)} AND i.fingerprint ${collate} > ${param(after.id)}))`);
  // PostgreSQL estimates the per-day rows of a value far below their number (their field, value and
  // md5 agree, which it multiplies as if independent) and would then scan the issues once per row
  // of the sums: each issue is found by its key instead (LIMIT 1, one row by the key, keeps the
  // planner from folding the lookup back into that join).
  const join = dialect == 'postgres'
    ? `JOIN LATERAL (SELECT * FROM issues WHERE site_key = ${site} AND fingerprint = hits.fingerprint LIMIT 1) i ON ${terms.join(' AND ') || 'true'}`
    : `JOIN issues i ON ${[`i.site_key = ${site}`, 'i.fingerprint = hits.fingerprint', ...terms].join(' AND ')}`;
  const text = `WITH parts (fingerprint, reports, occurrences, visitors) AS (${parts.join(' UNION ALL ')}),
    hits AS (SELECT fingerprint, SUM(reports) AS reports, SUM(occurrences) AS occurrences, SUM(visitors) AS visitors
      FROM parts GROUP BY fingerprint HAVING SUM(reports) > 0)
    SELECT i.*, hits.reports, hits.occurrences FROM hits ${join}
    ORDER BY ${sort} DESC, i.fingerprint ${collate} LIMIT ${param(options.limit + 1)}`;
  return { text, values };
};

/**
 * Distinct (UTC day, visitor) pairs and distinct page views of these fingerprints' reports in the
 * list's range (bots out unless included), as `issueListQuery` counts them: for the page's rows of
 * the fast list, through the index by fingerprint and time, which holds every field the list filters
 * by (SQLite; PostgreSQL's all but the page: postgres/issueSchema.ts). With no field filter and bots
 * left out, the visitors of whole days are the issue's per-day counts'.
 */
export const issuePageCountsQuery = (dialect: Dialect, siteKey: string, fingerprints: readonly string[], options: IssueListOptions): BuiltQuery => {
  const { values, param } = builder(dialect);
  const index = dialect == 'sqlite' ? 'INDEXED BY error_reports_by_fingerprint_time' : '';
  const of = (filter: IssueListOptions) => `FROM error_reports r ${index} WHERE ${reportWhere(param, siteKey, filter)} AND r.fingerprint IN (${fingerprints.map(param).join(', ')})`;
  const days = wholeDaysOf(options.since!, options.until!);
  if (!days || options.includeBots || fieldFiltersOf(options).length) {
    return {
      text: `SELECT r.fingerprint,
          COUNT(DISTINCT CASE WHEN r.visitor IS NOT NULL THEN CAST(r.received_at / ${DAY} AS TEXT) || ':' || r.visitor END) AS visitors,
          COUNT(DISTINCT r.session_id) AS page_views
        ${of(options)} GROUP BY r.fingerprint`,
      values,
    };
  }
  // People's visitors of the whole days from the issue's per-day rows, of a partial day (inside one
  // day: its distinct visitors) from the reports; page views, distinct over the range, from the reports.
  const whole = Array.from({ length: days.last - days.first + 1 }, (_, offset) => days.first + offset).join(', ');
  const byValue = dialect == 'postgres' ? `md5(c.value) = md5('') AND ` : '';
  const parts = [`SELECT c.fingerprint, c.visitors, 0 FROM issue_day_counts c WHERE c.site_key = ${param(siteKey)} AND c.field = '' AND ${byValue}c.value = ''
    AND c.day IN (${whole}) AND c.fingerprint IN (${fingerprints.map(param).join(', ')})`];
  for (const edge of [{ since: options.since!, until: days.first * DAY - 1 }, { since: (days.last + 1) * DAY, until: options.until! }]) {
    if (edge.since <= edge.until) parts.push(`SELECT r.fingerprint, COUNT(DISTINCT r.visitor), 0 ${of({ ...options, ...edge })} GROUP BY r.fingerprint`);
  }
  parts.push(`SELECT r.fingerprint, 0, COUNT(DISTINCT r.session_id) ${of(options)} GROUP BY r.fingerprint`);
  return {
    text: `WITH parts (fingerprint, visitors, page_views) AS (${parts.join(' UNION ALL ')})
      SELECT fingerprint, SUM(visitors) AS visitors, SUM(page_views) AS page_views FROM parts GROUP BY fingerprint`,
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
