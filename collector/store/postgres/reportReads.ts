import type { StoredErrorReport } from '../../core/records';
import type { CspReportStore } from '../contract/cspReports';
import type { DailyErrors, ErrorReportStore, FieldCount, HourlyErrors } from '../contract/errorReports';
import type { Pool } from './pool';
import { run, toRecord } from './rows';

const DAY = 86_400_000;
const HOUR = 3_600_000;

// $1 site, $2 since (ms), $3 the day `since` falls in, $4 the fingerprint (with `filter`). Whole
// days after `since` from the per-day aggregate, the day of `since` from the reports themselves,
// as sqlite/reportReads.ts. Two statements rather than `($4 IS NULL OR ...)`, which a generic plan
// of the prepared statement could not narrow to the fingerprint indexes.
const errorsDaily = (filter: string) => `WITH parts AS (
    SELECT day, reports, count FROM error_groups WHERE site_key = $1 ${filter} AND day > $3
    UNION ALL
    SELECT $3::int8, COUNT(*), coalesce(SUM(coalesce(count, 1)), 0) FROM error_reports
    WHERE site_key = $1 ${filter} AND received_at >= $2 AND received_at < ($3 + 1) * ${DAY}
  )
  SELECT day * ${DAY} AS day, SUM(reports) AS reports, SUM(count) AS count FROM parts
  GROUP BY day HAVING SUM(reports) > 0 ORDER BY day`;
const ALL_DAILY = errorsDaily('');
const GROUP_DAILY = errorsDaily('AND fingerprint = $4');

const CSP_DAILY = `WITH parts AS (
    SELECT day, reports FROM csp_groups WHERE site_key = $1 AND day > $3
    UNION ALL
    SELECT $3::int8, COUNT(*) FROM csp_reports
    WHERE site_key = $1 AND received_at >= $2 AND received_at < ($3 + 1) * ${DAY}
      AND report_type = 'csp-violation' AND effective_directive IS NOT NULL
  )
  SELECT day * ${DAY} AS day, SUM(reports) AS reports FROM parts GROUP BY day HAVING SUM(reports) > 0 ORDER BY day`;

// $1 site, $2 since (ms), $3 the fingerprint (with `filter`): per UTC hour from the reports themselves, a short range's.
const errorsHourly = (filter: string) => `SELECT received_at / ${HOUR} * ${HOUR} AS hour, COUNT(*) AS reports, coalesce(SUM(coalesce(count, 1)), 0) AS count
  FROM error_reports WHERE site_key = $1 ${filter} AND received_at >= $2 GROUP BY 1 ORDER BY 1`;
const ALL_HOURLY = errorsHourly('');
const GROUP_HOURLY = errorsHourly('AND fingerprint = $3');
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
      async daily(siteKey, { since, fingerprint } = {}) {
        const { rows } =
          fingerprint === undefined
            ? await run<DailyErrors>(pool, ALL_DAILY, range(siteKey, since), 'errors_daily')
            : await run<DailyErrors>(pool, GROUP_DAILY, [...range(siteKey, since), fingerprint], 'error_group_daily');
        return rows;
      },
      async hourly(siteKey, { since, fingerprint }) {
        const at = Math.floor(since);
        const { rows } =
          fingerprint === undefined
            ? await run<HourlyErrors>(pool, ALL_HOURLY, [siteKey, at], 'errors_hourly')
            : await run<HourlyErrors>(pool, GROUP_HOURLY, [siteKey, at, fingerprint], 'error_group_hourly');
        return rows;
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
    } satisfies Pick<ErrorReportStore, 'daily' | 'hourly' | 'sessions' | 'visitors' | 'latest' | 'breakdown'>,
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
