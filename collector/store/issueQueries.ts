import { decodeKeyCursor } from '../core/cursor';
import type { IssueListOptions, IssueReportFilter } from './contract/issues';
import { ISSUE_DAY_FIELD_NAMES } from './issueDays';

const DAY = 86_400_000;

/**
 * One query's text and values, built for SQLite (`?`) or PostgreSQL (`$1`...): the issue reads are
 * one SQL text for both stores, with only the filters a read gives (a `(? IS NULL OR ...)` would
 * keep either planner from the index of the column filtered).
 */
export interface BuiltQuery {
  text: string;
  values: unknown[];
}

export type Dialect = 'sqlite' | 'postgres';

export const builder = (dialect: Dialect) => {
  const values: unknown[] = [];
  const param = (value: unknown) => {
    values.push(value);
    return dialect == 'sqlite' ? '?' : `$${values.length}`;
  };
  return { values, param };
};

export type Param = (value: unknown) => string;

/** Fingerprints compare bytewise in both stores, whatever PostgreSQL's collation. */
export const byFingerprint = (dialect: Dialect) => (dialect == 'postgres' ? 'COLLATE "C"' : '');

/**
 * The WHERE of a site's reports an issue read counts (alias `r`): range (`until` inclusive), exact
 * page, parsed client, release, environment, and no report of a known bot unless asked. A report
 * stored before the client was parsed (null `bot`) counts as a person's.
 */
export const reportWhere = (param: Param, siteKey: string, filter: IssueReportFilter) => {
  const terms = [`r.site_key = ${param(siteKey)}`];
  if (filter.since !== undefined) terms.push(`r.received_at >= ${param(filter.since)}`);
  if (filter.until !== undefined) terms.push(`r.received_at <= ${param(filter.until)}`);
  const exact = { page_url: filter.page, browser: filter.browser, os: filter.os, device: filter.device, release: filter.release, environment: filter.environment };
  for (const [column, value] of Object.entries(exact)) if (value !== undefined) terms.push(`r.${column} = ${param(value)}`);
  if (!filter.includeBots) terms.push('(r.bot IS NULL OR r.bot = 0)');
  return terms.join(' AND ');
};

/** `%word%` for LIKE, its wildcards escaped. */
const likePattern = (word: string) => `%${word.toLowerCase().replace(/[\\%_]/g, (character) => `\\${character}`)}%`;

/**
 * The issues' own filters (alias `i`): status as it reads at `now` (core/issueLifecycle.ts
 * statusAt), words, type and the excluded types, after the site's; none when the list asks for none. Parameters in
 * the order of the text: SQLite's are positional.
 */
export const issueWhere = (param: Param, siteKey: string, options: IssueListOptions, now: number) => {
  const words = (options.q ?? '').split(/\s+/).filter(Boolean).slice(0, 8);
  const narrowed = options.status != 'all' || words.length > 0 || options.type !== undefined || Boolean(options.excludeTypes?.length);
  if (!narrowed) return [];
  const terms = [`i.site_key = ${param(siteKey)}`];
  if (options.status != 'all') {
    terms.push(`CASE WHEN i.status = 'ignored' AND i.ignore_until IS NOT NULL AND i.ignore_until < ${param(now)} THEN 'unresolved' ELSE i.status END = ${param(options.status)}`);
  }
  for (const word of words) {
    terms.push(`lower(i.error_type || ' ' || coalesce(i.error_name, '') || ' ' || i.error_message) LIKE ${param(likePattern(word))} ESCAPE '\\'`);
  }
  if (options.type !== undefined) terms.push(`i.error_type = ${param(options.type)}`);
  if (options.excludeTypes?.length) terms.push(`i.error_type NOT IN (${options.excludeTypes.map(param).join(', ')})`);
  return terms;
};

export const SORT_COLUMNS = { last_seen: 'i.last_seen', first_seen: 'i.first_seen', occurrences: 'hits.occurrences', visitors: 'hits.visitors' } as const;

/**
 * The issues' list (store/contract/issues.ts `list`): the filtered reports of the range counted per
 * fingerprint (reports, occurrences, distinct (UTC day, visitor) pairs as docs/visitors.md counts
 * them, distinct page views), joined to each issue's state, filtered by status as it reads at `now`
 * (core/issueLifecycle.ts statusAt), words, type and the excluded types, sorted descending with ties
 * by fingerprint, from the cursor on; one row more than `limit` tells whether a next page exists.
 * SQLite is told the index made for it (sqlite/issueSchema.ts): without statistics its planner
 * takes the fingerprint index and reads every report of the site.
 */
export const issueListQuery = (dialect: Dialect, siteKey: string, options: IssueListOptions, now: number): BuiltQuery => {
  const { values, param } = builder(dialect);
  const reports = reportWhere(param, siteKey, options);
  // The issues' own filters narrow the reports counted, before they are grouped: what the list
  // leaves out is never counted.
  const issueTerms = issueWhere(param, siteKey, options, now);
  const narrowed = issueTerms.length > 0;
  const where = narrowed ? `${reports} AND r.fingerprint IN (SELECT i.fingerprint FROM issues i WHERE ${issueTerms.join(' AND ')})` : reports;
  const terms = [`i.site_key = ${param(siteKey)}`, 'i.fingerprint = hits.fingerprint'];
  const sort = SORT_COLUMNS[options.sort];
  const after = options.cursor === undefined ? undefined : decodeKeyCursor(options.cursor);
  const collate = byFingerprint(dialect);
  if (after) terms.push(`(${sort} < ${param(after.key)} OR (${sort} = ${param(after.key)} AND i.fingerprint ${collate} > ${param(after.id)}))`);
  const text = `WITH hits AS (
      SELECT r.fingerprint, COUNT(*) AS reports, SUM(coalesce(r.count, 1)) AS occurrences,
        COUNT(DISTINCT CASE WHEN r.visitor IS NOT NULL THEN CAST(r.received_at / ${DAY} AS TEXT) || ':' || r.visitor END) AS visitors,
        COUNT(DISTINCT r.session_id) AS page_views
      FROM error_reports r ${dialect == 'sqlite' ? 'INDEXED BY error_reports_for_issues' : ''} WHERE ${where} GROUP BY r.fingerprint
    )
    SELECT i.*, hits.reports, hits.occurrences, hits.visitors, hits.page_views
    FROM hits JOIN issues i ON ${terms.join(' AND ')}
    ORDER BY ${sort} DESC, i.fingerprint ${collate} LIMIT ${param(options.limit + 1)}`;
  return { text, values };
};

/** The sort key of a listed row, for the next cursor. */
export const issueSortKey = (row: Record<string, unknown>, sort: IssueListOptions['sort']) => Number(row[sort]);

/** An issue's reports, newest first (time, then row id), from the cursor on, one more than `limit`. */
export const issueEventsQuery = (dialect: Dialect, siteKey: string, fingerprint: string, { cursor, limit }: { cursor?: string | undefined; limit: number }): BuiltQuery => {
  const { values, param } = builder(dialect);
  const terms = [`site_key = ${param(siteKey)}`, `fingerprint = ${param(fingerprint)}`];
  const after = cursor === undefined ? undefined : decodeKeyCursor(cursor);
  if (after && /^\d+$/.test(after.id)) {
    terms.push(`(received_at < ${param(after.key)} OR (received_at = ${param(after.key)} AND id < ${param(Number(after.id))}))`);
  }
  return { text: `SELECT * FROM error_reports WHERE ${terms.join(' AND ')} ORDER BY received_at DESC, id DESC LIMIT ${param(limit + 1)}`, values };
};

export const TAG_COLUMNS = { browser: 'browser', os: 'os', device: 'device', page: 'page_url', release: 'release' } as const;

/** One tag's counts (reports per value, '' where absent, as FieldCount) of an issue's filtered reports, the `limit` most frequent. */
export const issueTagQuery = (dialect: Dialect, siteKey: string, fingerprint: string, tag: keyof typeof TAG_COLUMNS, options: IssueReportFilter & { limit: number }): BuiltQuery => {
  const { values, param } = builder(dialect);
  const where = `${reportWhere(param, siteKey, options)} AND r.fingerprint = ${param(fingerprint)}`;
  const column = `coalesce(r.${TAG_COLUMNS[tag]}, '')`;
  const collate = dialect == 'postgres' ? 'COLLATE "C"' : '';
  return {
    text: `SELECT ${column} AS value, COUNT(*) AS reports FROM error_reports r WHERE ${where}
      GROUP BY ${column} ORDER BY reports DESC, ${column} ${collate} LIMIT ${param(options.limit)}`,
    values,
  };
};

/** Occurrences per fingerprint and bucket (`(received_at - since) / bucketMs`) of the filtered reports. */
export const issueTrendsQuery = (
  dialect: Dialect,
  siteKey: string,
  fingerprints: readonly string[],
  options: IssueReportFilter & { since: number; until: number; bucketMs: number },
): BuiltQuery => {
  const { values, param } = builder(dialect);
  const parts: string[] = [];
  let since = Math.floor(options.since);
  // Daily buckets on whole UTC days summed from the per-day counts, as the list sums them
  // (issueFastList.ts, docs/issues.md "The list at a million reports"); the last day's hours from the reports.
  const fields = ISSUE_DAY_FIELD_NAMES.filter((field) => options[field] !== undefined);
  const lastWhole = Math.floor((options.until + 1) / DAY) - 1;
  const firstDay = since / DAY;
  if (options.bucketMs == DAY && since % DAY == 0 && lastWhole >= firstDay && fields.length <= 1 && !(options.includeBots && fields.length)) {
    const days = Array.from({ length: lastWhole - firstDay + 1 }, (_, index) => firstDay + index).join(', ');
    if (options.includeBots) {
      parts.push(`SELECT g.fingerprint, g.day - ${firstDay} AS bucket, g.count AS occurrences FROM error_groups g
        WHERE g.site_key = ${param(siteKey)} AND g.fingerprint IN (${fingerprints.map(param).join(', ')}) AND g.day IN (${days})`);
    } else {
      const value = fields.length ? options[fields[0]!]! : '';
      const byValue = dialect == 'postgres' ? `md5(c.value) = md5(${param(value)}::text) AND ` : '';
      parts.push(`SELECT c.fingerprint, c.day - ${firstDay} AS bucket, c.occurrences FROM issue_day_counts c
        WHERE c.site_key = ${param(siteKey)} AND c.field = ${param(fields[0] ?? '')} AND ${byValue}c.value = ${param(value)}
          AND c.day IN (${days}) AND c.fingerprint IN (${fingerprints.map(param).join(', ')})`);
    }
    since = (lastWhole + 1) * DAY;
  }
  if (since <= options.until) {
    // Parameters in the order of the text (SQLite's are positional); whole buckets: better-sqlite3 binds
    // a number as a REAL, whose division would not truncate.
    const bucket = `CAST((r.received_at - ${param(Math.floor(options.since))}) / ${param(Math.max(1, Math.floor(options.bucketMs)))} AS INTEGER)`;
    const where = `${reportWhere(param, siteKey, { ...options, since })} AND r.fingerprint IN (${fingerprints.map(param).join(', ')})`;
    // The page's fingerprints' reports from the index by fingerprint and time, which holds every field
    // the list filters by: no report's row is read.
    const index = dialect == 'sqlite' ? 'INDEXED BY error_reports_by_fingerprint_time' : '';
    parts.push(`SELECT r.fingerprint, ${bucket} AS bucket, SUM(coalesce(r.count, 1)) AS occurrences FROM error_reports r ${index}
      WHERE ${where} GROUP BY 1, 2`);
  }
  return { text: parts.join(' UNION ALL '), values };
};

/**
 * Trend rows as each fingerprint's counts per bucket from `since` to `until` (a report at `until`
 * falls in the last bucket); every fingerprint asked for has its list, zeros where nothing occurred.
 */
export const trendSeries = (
  fingerprints: readonly string[],
  rows: Array<{ fingerprint: string; bucket: number | string; occurrences: number | string }>,
  { since, until, bucketMs }: { since: number; until: number; bucketMs: number },
) => {
  const buckets = Math.max(1, Math.ceil((until - since) / Math.max(1, bucketMs)));
  const series = new Map(fingerprints.map((fingerprint) => [fingerprint, new Array<number>(buckets).fill(0)]));
  for (const row of rows) {
    const counts = series.get(row.fingerprint);
    if (counts) counts[Math.min(buckets - 1, Math.floor(Number(row.bucket)))]! += Number(row.occurrences);
  }
  return series;
};
