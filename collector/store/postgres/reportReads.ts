import { COPY_WINDOW_MS } from '../../core/cspCopies';
import type { StoredErrorReport } from '../../core/records';
import { byWindows, loadOf, type LoadRow, violationOf, type ViolationRow, windowCap } from '../blockedLoadRows';
import type { CspReportStore } from '../contract/cspReports';
import type { DailyErrors, ErrorReportStore, FieldCount, HourlyErrors } from '../contract/errorReports';
import type { Pool } from './pool';
import { run, toRecord } from './rows';

const DAY = 86_400_000;
const HOUR = 3_600_000;

// $1 site, $2 since (ms), $3 the day `since` falls in, $4 the fingerprint (with `filter`). Whole
// days after `since` from the per-day aggregate, the day of `since` from the reports themselves,
// as sqlite/reportReads.ts; without bots, the bots' reports since `since` taken back out per day
// (their partial index, error_reports_of_bots). A statement per filter rather than
// `($4 IS NULL OR ...)`, which a generic plan of the prepared statement could not narrow to the
// fingerprint indexes.
const errorsDaily = (filter: string, withoutBots: boolean) => `WITH parts AS (
    SELECT day, reports, count FROM error_groups WHERE site_key = $1 ${filter} AND day > $3
    UNION ALL
    SELECT $3::int8, COUNT(*), coalesce(SUM(coalesce(count, 1)), 0) FROM error_reports
    WHERE site_key = $1 ${filter} AND received_at >= $2 AND received_at < ($3 + 1) * ${DAY}
    ${withoutBots ? `UNION ALL
    SELECT received_at / ${DAY}, -COUNT(*), -coalesce(SUM(coalesce(count, 1)), 0) FROM error_reports
    WHERE site_key = $1 ${filter} AND bot = 1 AND received_at >= $2 GROUP BY 1` : ''}
  )
  SELECT day * ${DAY} AS day, SUM(reports) AS reports, SUM(count) AS count FROM parts
  GROUP BY day HAVING SUM(reports) > 0 ORDER BY day`;
const DAILY = [errorsDaily('', false), errorsDaily('AND fingerprint = $4', false), errorsDaily('', true), errorsDaily('AND fingerprint = $4', true)];

const CSP_DAILY = `WITH parts AS (
    SELECT day, reports FROM csp_groups WHERE site_key = $1 AND day > $3
    UNION ALL
    SELECT $3::int8, COUNT(*) FROM csp_reports
    WHERE site_key = $1 AND received_at >= $2 AND received_at < ($3 + 1) * ${DAY}
      AND report_type = 'csp-violation' AND effective_directive IS NOT NULL
  )
  SELECT day * ${DAY} AS day, SUM(reports) AS reports FROM parts GROUP BY day HAVING SUM(reports) > 0 ORDER BY day`;

// $1 site, $2 since (ms), $3 the fingerprint (with `filter`): per UTC hour from the reports themselves, a short range's.
const errorsHourly = (filter: string, withoutBots: boolean) => `SELECT received_at / ${HOUR} * ${HOUR} AS hour, COUNT(*) AS reports, coalesce(SUM(coalesce(count, 1)), 0) AS count
  FROM error_reports WHERE site_key = $1 ${filter} AND received_at >= $2 ${withoutBots ? 'AND (bot IS NULL OR bot = 0)' : ''} GROUP BY 1 ORDER BY 1`;
const HOURLY = [errorsHourly('', false), errorsHourly('AND fingerprint = $3', false), errorsHourly('', true), errorsHourly('AND fingerprint = $3', true)];

// What a total counts once (core/countedOnce.ts), as sqlite/reportReads.ts, by probe or by window
// (blockedLoadRows.ts `byWindows`): $1 site, $2 since, $3 limit.
const LOAD_COLUMNS = 'e.received_at, e.source_url, e.page_url, coalesce(e.count, 1) AS count, coalesce(e.bot, 0) AS bot';
const LOADS_BY_PROBE = `SELECT ${LOAD_COLUMNS}
  FROM issues AS i JOIN error_reports AS e ON e.site_key = i.site_key AND e.fingerprint = i.fingerprint AND e.received_at >= $2
  WHERE i.site_key = $1 AND i.error_type = 'resource_error'
    AND EXISTS (SELECT 1 FROM csp_reports AS c WHERE c.site_key = $1
      AND c.received_at BETWEEN e.received_at - ${COPY_WINDOW_MS} AND e.received_at + ${COPY_WINDOW_MS}
      AND c.report_type = 'csp-violation' AND c.effective_directive IS NOT NULL)
  ORDER BY e.received_at LIMIT $3`;
const WINDOWS = `SELECT DISTINCT received_at / ${COPY_WINDOW_MS} AS w FROM csp_reports WHERE site_key = $1 AND received_at >= $2::int8 - ${COPY_WINDOW_MS}`;
const LOADS_BY_WINDOW = `WITH seen AS (${WINDOWS}), near (w) AS (SELECT w - 1 FROM seen UNION SELECT w FROM seen UNION SELECT w + 1 FROM seen)
  SELECT ${LOAD_COLUMNS}
  FROM near CROSS JOIN LATERAL (SELECT fingerprint FROM issues WHERE site_key = $1 AND error_type = 'resource_error') AS i
    JOIN error_reports AS e ON e.site_key = $1 AND e.fingerprint = i.fingerprint
      AND e.received_at >= GREATEST($2::int8, near.w * ${COPY_WINDOW_MS}) AND e.received_at < (near.w + 1) * ${COPY_WINDOW_MS}
  ORDER BY e.received_at LIMIT $3`;
// $1 site, $2 since, $3 cap: the windows, at most `cap`. $1 site, $2 the day of since: the resource issues and their reports.
const WINDOW_COUNT = `SELECT COUNT(*)::int AS windows FROM (${WINDOWS} LIMIT $3) AS windows`;
const RESOURCE_REPORTS = `SELECT COUNT(DISTINCT i.fingerprint)::int AS fingerprints, coalesce(SUM(g.reports), 0)::int8 AS reports FROM issues AS i
  JOIN error_groups AS g ON g.site_key = i.site_key AND g.fingerprint = i.fingerprint AND g.day >= $2
  WHERE i.site_key = $1 AND i.error_type = 'resource_error'`;
// $1 site, $2 from, $3 to, $4 limit: the violations a failed load of that span is compared with.
const VIOLATIONS_BETWEEN = `SELECT received_at, report_type, effective_directive, blocked_uri, document_uri, disposition FROM csp_reports
  WHERE site_key = $1 AND received_at BETWEEN $2 AND $3 AND report_type = 'csp-violation' AND effective_directive IS NOT NULL
    AND blocked_uri IS NOT NULL AND document_uri IS NOT NULL
  ORDER BY received_at LIMIT $4`;
const CSP_HOURLY = `SELECT received_at / ${HOUR} * ${HOUR} AS hour, COUNT(*) AS reports FROM csp_reports
  WHERE site_key = $1 AND received_at >= $2 AND report_type = 'csp-violation' AND effective_directive IS NOT NULL GROUP BY 1 ORDER BY 1`;

const SESSIONS = `SELECT COUNT(DISTINCT session_id) AS sessions FROM error_reports
  WHERE site_key = $1 AND fingerprint = $2 AND received_at >= $3`;

// Distinct (UTC day, visitor) pairs (docs/visitors.md).
const VISITORS = `SELECT COUNT(*) AS visitors FROM (
    SELECT 1 FROM error_reports WHERE site_key = $1 AND fingerprint = $2 AND received_at >= $3 AND visitor IS NOT NULL
    GROUP BY received_at / ${DAY}, visitor
  ) AS pairs`;

// Ties in the order of the values' bytes (COLLATE "C"), as SQLite's BINARY collation orders them.
const breakdownOf = (field: 'page_url' | 'user_agent') => `SELECT coalesce(${field}, '') AS value, COUNT(*) AS reports
  FROM error_reports WHERE site_key = $1 AND fingerprint = $2 AND received_at >= $3
  GROUP BY 1 ORDER BY reports DESC, coalesce(${field}, '') COLLATE "C" LIMIT $4`;
const BREAKDOWNS = { page_url: breakdownOf('page_url'), user_agent: breakdownOf('user_agent') };

/**
 * The dashboard's reads of error and CSP reports in PostgreSQL, as sqlite/reportReads.ts: daily
 * series from the per-day aggregates and the reports of the day `since` falls in; one group's
 * detail through the (site_key, fingerprint) index.
 */
export const postgresReportReads = (
  pool: Pool,
) => {
  const range = (site: string, since = 0) => [site, since, Math.floor(since / DAY)];
  return {
    errors: {
      async daily(siteKey, { since, fingerprint, withoutBots } = {}) {
        const which = (fingerprint === undefined ? 0 : 1) + (withoutBots ? 2 : 0);
        const params = fingerprint === undefined ? range(siteKey, since) : [...range(siteKey, since), fingerprint];
        return (await run<DailyErrors>(pool, DAILY[which]!, params, `errors_daily_${which}`)).rows;
      },
      async hourly(siteKey, { since, fingerprint, withoutBots }) {
        const which = (fingerprint === undefined ? 0 : 1) + (withoutBots ? 2 : 0);
        const params = fingerprint === undefined ? [siteKey, Math.floor(since)] : [siteKey, Math.floor(since), fingerprint];
        return (await run<HourlyErrors>(pool, HOURLY[which]!, params, `errors_hourly_${which}`)).rows;
      },
      async blockedLoads(siteKey, { since, limit }) {
        const at = Math.floor(since);
        const resources = (await run<{ fingerprints: number; reports: string }>(pool, RESOURCE_REPORTS, [siteKey, Math.floor(since / DAY)], 'resource_reports')).rows[0]!;
        const [fingerprints, reports] = [Number(resources.fingerprints), Number(resources.reports)];
        if (!reports) return { loads: [], violations: [] };
        const cap = windowCap(reports, fingerprints);
        const { windows } = (await run<{ windows: number }>(pool, WINDOW_COUNT, [siteKey, at, cap], 'csp_windows')).rows[0]!;
        const [text, name] = byWindows(Number(windows), fingerprints, reports) ? [LOADS_BY_WINDOW, 'failed_loads_by_window'] : [LOADS_BY_PROBE, 'failed_loads_by_probe'];
        const loads = (await run<LoadRow>(pool, text, [siteKey, at, limit], name)).rows.map(loadOf);
        if (!loads.length) return { loads, violations: [] };
        const [from, to] = [loads[0]!.received_at - COPY_WINDOW_MS, loads.at(-1)!.received_at + COPY_WINDOW_MS];
        const { rows } = await run<ViolationRow>(pool, VIOLATIONS_BETWEEN, [siteKey, from, to, limit], 'violations_between');
        return { loads, violations: rows.map(violationOf) };
      },
      async sessions(siteKey, { fingerprint, since = 0 }) {
        return (await run<{ sessions: number }>(pool, SESSIONS, [siteKey, fingerprint, since], 'error_group_sessions')).rows[0]!.sessions;
      },
      async visitors(siteKey, { fingerprint, since = 0 }) {
        return (await run<{ visitors: number }>(pool, VISITORS, [siteKey, fingerprint, since], 'error_group_visitors')).rows[0]!.visitors;
      },
      async latest(siteKey, fingerprint) {
        // `SELECT *` not prepared: a column a newer collector adds would change its result type.
        const { rows } = await run(pool, 'SELECT * FROM error_reports WHERE site_key = $1 AND fingerprint = $2 ORDER BY received_at DESC, id DESC LIMIT 1', [
          siteKey, fingerprint,
        ]);
        return rows[0] && toRecord<StoredErrorReport>(rows[0]);
      },
      async breakdown(siteKey, { fingerprint, field, since = 0, limit }) {
        return (await run<FieldCount>(pool, BREAKDOWNS[field], [siteKey, fingerprint, since, limit], `error_group_${field}s`)).rows;
      },
    } satisfies Pick<ErrorReportStore, 'daily' | 'hourly' | 'blockedLoads' | 'sessions' | 'visitors' | 'latest' | 'breakdown'>,
    csp: {
      async daily(siteKey, { since } = {}) {
        return (await run<{ day: number; reports: number }>(pool, CSP_DAILY, range(siteKey, since), 'csp_daily')).rows;
      },
      async hourly(siteKey, { since }) {
        return (await run<{ hour: number; reports: number }>(pool, CSP_HOURLY, [siteKey, Math.floor(since)], 'csp_hourly')).rows;
      },
    } satisfies Pick<CspReportStore, 'daily' | 'hourly'>,
  };
};
