import type { Database } from 'better-sqlite3';
import type { StoredErrorReport } from '../../core/records';
import type { CspReportStore } from '../contract/cspReports';
import type { DailyErrors, ErrorReportStore, FieldCount, HourlyErrors } from '../contract/errorReports';
import { toRecord, type Row } from './rows';

const DAY = 86_400_000;
const HOUR = 3_600_000;

type Params = { site: string; since: number; day: number; fingerprint: string | null };

/**
 * The dashboard's reads of error and CSP reports in SQLite: daily series from the per-day
 * aggregates (whole days after `since`) and the reports themselves (the day `since` falls in),
 * as reports.ts's groups; and one group's detail through the (site_key, fingerprint, received_at,
 * session_id) index (migration 8).
 */
export const sqliteReportReads = (
  db: Database,
) => {
  // Two statements rather than `(@fingerprint IS NULL OR ...)`, which would keep SQLite off the fingerprint index.
  const errorsDaily = (byFingerprint: boolean) => {
    const filter = byFingerprint ? 'AND fingerprint = @fingerprint' : '';
    return db.prepare<Params, DailyErrors>(
      `WITH parts AS (
         SELECT day, reports, count FROM error_groups WHERE site_key = @site ${filter} AND day > @day
         UNION ALL
         SELECT @day, COUNT(*), coalesce(SUM(coalesce(count, 1)), 0) FROM error_reports
         WHERE site_key = @site ${filter} AND received_at >= @since AND received_at < (@day + 1) * ${DAY}
       )
       SELECT day * ${DAY} AS day, SUM(reports) AS reports, SUM(count) AS count FROM parts
       GROUP BY day HAVING SUM(reports) > 0 ORDER BY day`,
    );
  };
  const allDaily = errorsDaily(false);
  const groupDaily = errorsDaily(true);
  const cspDaily = db.prepare<Params, { day: number; reports: number }>(
    `WITH parts AS (
       SELECT day, reports FROM csp_groups WHERE site_key = @site AND day > @day
       UNION ALL
       SELECT @day, COUNT(*) FROM csp_reports
       WHERE site_key = @site AND received_at >= @since AND received_at < (@day + 1) * ${DAY}
         AND report_type = 'csp-violation' AND effective_directive IS NOT NULL
     )
     SELECT day * ${DAY} AS day, SUM(reports) AS reports FROM parts GROUP BY day HAVING SUM(reports) > 0 ORDER BY day`,
  );
  // Per hour from the reports by site and time (the fingerprint's index for one group): a short range.
  const errorsHourly = (filter: string) =>
    db.prepare<{ site: string; since: number; fingerprint: string | null }, HourlyErrors>(
      `SELECT received_at / ${HOUR} * ${HOUR} AS hour, COUNT(*) AS reports, coalesce(SUM(coalesce(count, 1)), 0) AS count FROM error_reports
       WHERE site_key = @site ${filter} AND received_at >= @since GROUP BY 1 ORDER BY 1`,
    );
  const allHourly = errorsHourly('');
  const groupHourly = errorsHourly('AND fingerprint = @fingerprint');
  const cspHourly = db.prepare<[string, number], { hour: number; reports: number }>(
    `SELECT received_at / ${HOUR} * ${HOUR} AS hour, COUNT(*) AS reports FROM csp_reports
     WHERE site_key = ? AND received_at >= ? AND report_type = 'csp-violation' AND effective_directive IS NOT NULL GROUP BY 1 ORDER BY 1`,
  );
  // Distinct sessions as groups of the sorter rather than COUNT(DISTINCT)'s temporary index: a
  // fifth less for the site page's 20 groups (the session ids come from the fingerprint index).
  const sessions = db.prepare<[string, string, number], { sessions: number }>(
    `SELECT COUNT(*) AS sessions FROM (
       SELECT 1 FROM error_reports WHERE site_key = ? AND fingerprint = ? AND received_at >= ? AND session_id IS NOT NULL GROUP BY session_id
     )`,
  );
  // Distinct (UTC day, visitor) pairs (docs/visitors.md), from the same index, grouped as sessions are.
  const visitors = db.prepare<[string, string, number], { visitors: number }>(
    `SELECT COUNT(*) AS visitors FROM (
       SELECT 1 FROM error_reports WHERE site_key = ? AND fingerprint = ? AND received_at >= ? AND visitor IS NOT NULL
       GROUP BY received_at / ${DAY}, visitor
     )`,
  );
  // The last received, through the fingerprint index in time order (the planner would otherwise walk
  // the site's reports backwards, the whole table for a rare group).
  const latest = db.prepare<[string, string], Row>(
    'SELECT * FROM error_reports INDEXED BY error_reports_by_fingerprint_time WHERE site_key = ? AND fingerprint = ? ORDER BY received_at DESC, id DESC LIMIT 1',
  );
  const breakdownOf = (field: 'page_url' | 'user_agent') =>
    db.prepare<[string, string, number, number], FieldCount>(
      `SELECT coalesce(${field}, '') AS value, COUNT(*) AS reports FROM error_reports
       WHERE site_key = ? AND fingerprint = ? AND received_at >= ? GROUP BY 1 ORDER BY reports DESC, value LIMIT ?`,
    );
  const breakdowns = { page_url: breakdownOf('page_url'), user_agent: breakdownOf('user_agent') };
  const params = (site: string, since = 0, fingerprint?: string): Params => ({ site, since, day: Math.floor(since / DAY), fingerprint: fingerprint ?? null });

  return {
    errors: {
      async daily(siteKey, { since, fingerprint } = {}) {
        return (fingerprint === undefined ? allDaily : groupDaily).all(params(siteKey, since, fingerprint));
      },
      async hourly(siteKey, { since, fingerprint }) {
        return (fingerprint === undefined ? allHourly : groupHourly).all({ site: siteKey, since: Math.floor(since), fingerprint: fingerprint ?? null });
      },
      async sessions(siteKey, { fingerprint, since = 0 }) {
        return sessions.get(siteKey, fingerprint, since)!.sessions;
      },
      async visitors(siteKey, { fingerprint, since = 0 }) {
        return visitors.get(siteKey, fingerprint, since)!.visitors;
      },
      async latest(siteKey, fingerprint) {
        const row = latest.get(siteKey, fingerprint);
        return row && toRecord<StoredErrorReport>(row);
      },
      async breakdown(siteKey, { fingerprint, field, since = 0, limit }) {
        return breakdowns[field].all(siteKey, fingerprint, since, limit);
      },
    } satisfies Pick<ErrorReportStore, 'daily' | 'hourly' | 'sessions' | 'visitors' | 'latest' | 'breakdown'>,
    csp: {
      async daily(siteKey, { since } = {}) {
        return cspDaily.all(params(siteKey, since));
      },
      async hourly(siteKey, { since }) {
        return cspHourly.all(siteKey, Math.floor(since));
      },
    } satisfies Pick<CspReportStore, 'daily' | 'hourly'>,
  };
};
