import type { Database } from 'better-sqlite3';
import { COPY_WINDOW_MS } from '../../core/cspCopies';
import type { StoredErrorReport } from '../../core/records';
import type { CspReportStore } from '../contract/cspReports';
import type { DailyErrors, ErrorReportStore, FieldCount, HourlyErrors } from '../contract/errorReports';
import { byWindows, loadOf, type LoadRow, violationOf, type ViolationRow, windowCap } from '../blockedLoadRows';
import { toRecord, type Row } from './rows';

const DAY = 86_400_000;
const HOUR = 3_600_000;

type Params = { site: string; since: number; day: number; fingerprint: string | null };
type LoadParams = { site: string; since: number; limit: number };

/**
 * The dashboard's reads of error and CSP reports in SQLite: daily series from the per-day
 * aggregates (whole days after `since`) and the reports themselves (the day `since` falls in),
 * as reports.ts's groups; and one group's detail through the (site_key, fingerprint, received_at,
 * session_id) index (migration 8).
 */
export const sqliteReportReads = (
  db: Database,
) => {
  // Statements per filter rather than `(@fingerprint IS NULL OR ...)`, which would keep SQLite off the
  // fingerprint index. Without bots: the bots' reports since `since` taken back out per day, read
  // from their partial index (error_reports_of_bots, issueSchema.ts), as the issues list does.
  const errorsDaily = (byFingerprint: boolean, withoutBots: boolean) => {
    const filter = byFingerprint ? 'AND fingerprint = @fingerprint' : '';
    const bots = withoutBots
      ? `UNION ALL
         SELECT received_at / ${DAY}, -COUNT(*), -coalesce(SUM(coalesce(count, 1)), 0) FROM error_reports INDEXED BY error_reports_of_bots
         WHERE site_key = @site ${filter} AND bot = 1 AND received_at >= @since GROUP BY 1`
      : '';
    return db.prepare<Params, DailyErrors>(
      `WITH parts AS (
         SELECT day, reports, count FROM error_groups WHERE site_key = @site ${filter} AND day > @day
         UNION ALL
         SELECT @day, COUNT(*), coalesce(SUM(coalesce(count, 1)), 0) FROM error_reports
         WHERE site_key = @site ${filter} AND received_at >= @since AND received_at < (@day + 1) * ${DAY}
         ${bots}
       )
       SELECT day * ${DAY} AS day, SUM(reports) AS reports, SUM(count) AS count FROM parts
       GROUP BY day HAVING SUM(reports) > 0 ORDER BY day`,
    );
  };
  const daily = [errorsDaily(false, false), errorsDaily(true, false), errorsDaily(false, true), errorsDaily(true, true)];
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
  const errorsHourly = (filter: string, withoutBots: boolean) =>
    db.prepare<{ site: string; since: number; fingerprint: string | null }, HourlyErrors>(
      `SELECT received_at / ${HOUR} * ${HOUR} AS hour, COUNT(*) AS reports, coalesce(SUM(coalesce(count, 1)), 0) AS count FROM error_reports
       WHERE site_key = @site ${filter} AND received_at >= @since ${withoutBots ? 'AND (bot IS NULL OR bot = 0)' : ''} GROUP BY 1 ORDER BY 1`,
    );
  const BY_FINGERPRINT = 'AND fingerprint = @fingerprint';
  const hourly = [errorsHourly('', false), errorsHourly(BY_FINGERPRINT, false), errorsHourly('', true), errorsHourly(BY_FINGERPRINT, true)];
  // What a total counts once (core/countedOnce.ts): the resource errors with a violation near them,
  // a superset core/countedOnce.ts then narrows (blockedLoadRows.ts says how each way is chosen).
  // By probe: each of the resource issues' reports in range (by fingerprint and time) tried
  // against the violations by site and time. By window: the ten-minute windows holding a CSP
  // report (by site and time, the index alone) and those either side, each looked up in the
  // resource issues' reports; a report is in one window, so none comes twice.
  const LOAD_COLUMNS = 'e.received_at, e.source_url, e.page_url, coalesce(e.count, 1) AS count, coalesce(e.bot, 0) AS bot';
  const loadsByProbe = db.prepare<LoadParams, LoadRow>(
    `SELECT ${LOAD_COLUMNS}
     FROM issues AS i CROSS JOIN error_reports AS e INDEXED BY error_reports_by_fingerprint_time
       ON e.site_key = i.site_key AND e.fingerprint = i.fingerprint AND e.received_at >= @since
     WHERE i.site_key = @site AND i.error_type = 'resource_error'
       AND EXISTS (SELECT 1 FROM csp_reports AS c WHERE c.site_key = @site
         AND c.received_at BETWEEN e.received_at - ${COPY_WINDOW_MS} AND e.received_at + ${COPY_WINDOW_MS}
         AND c.report_type = 'csp-violation' AND c.effective_directive IS NOT NULL)
     ORDER BY e.received_at LIMIT @limit`,
  );
  const WINDOWS = `SELECT DISTINCT received_at / ${COPY_WINDOW_MS} AS w FROM csp_reports WHERE site_key = @site AND received_at >= @since - ${COPY_WINDOW_MS}`;
  const loadsByWindow = db.prepare<LoadParams, LoadRow>(
    `WITH seen AS (${WINDOWS}), near (w) AS (SELECT w - 1 FROM seen UNION SELECT w FROM seen UNION SELECT w + 1 FROM seen)
     SELECT ${LOAD_COLUMNS}
     FROM near CROSS JOIN issues AS i CROSS JOIN error_reports AS e INDEXED BY error_reports_by_fingerprint_time
       ON e.site_key = i.site_key AND e.fingerprint = i.fingerprint
         AND e.received_at >= max(@since, near.w * ${COPY_WINDOW_MS}) AND e.received_at < (near.w + 1) * ${COPY_WINDOW_MS}
     WHERE i.site_key = @site AND i.error_type = 'resource_error'
     ORDER BY e.received_at LIMIT @limit`,
  );
  // What each way costs: the windows (at most `cap`), the resource issues and their reports since the day of `since`.
  const windowCount = db.prepare<{ site: string; since: number; cap: number }, { windows: number }>(`SELECT COUNT(*) AS windows FROM (${WINDOWS} LIMIT @cap)`);
  const resourceReports = db.prepare<{ site: string; day: number }, { fingerprints: number; reports: number }>(
    `SELECT COUNT(DISTINCT i.fingerprint) AS fingerprints, coalesce(SUM(g.reports), 0) AS reports FROM issues AS i
     JOIN error_groups AS g ON g.site_key = i.site_key AND g.fingerprint = i.fingerprint AND g.day >= @day
     WHERE i.site_key = @site AND i.error_type = 'resource_error'`,
  );
  const violationsBetween = db.prepare<{ site: string; from: number; to: number; limit: number }, ViolationRow>(
    `SELECT received_at, report_type, effective_directive, blocked_uri, document_uri, disposition FROM csp_reports
     WHERE site_key = @site AND received_at BETWEEN @from AND @to AND report_type = 'csp-violation' AND effective_directive IS NOT NULL
       AND blocked_uri IS NOT NULL AND document_uri IS NOT NULL
     ORDER BY received_at LIMIT @limit`,
  );
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
      async daily(siteKey, { since, fingerprint, withoutBots } = {}) {
        return daily[(fingerprint === undefined ? 0 : 1) + (withoutBots ? 2 : 0)]!.all(params(siteKey, since, fingerprint));
      },
      async hourly(siteKey, { since, fingerprint, withoutBots }) {
        const statement = hourly[(fingerprint === undefined ? 0 : 1) + (withoutBots ? 2 : 0)]!;
        return statement.all({ site: siteKey, since: Math.floor(since), fingerprint: fingerprint ?? null });
      },
      async blockedLoads(siteKey, { since, limit }) {
        const at = { site: siteKey, since: Math.floor(since), limit };
        const { fingerprints, reports } = resourceReports.get({ site: siteKey, day: Math.floor(since / DAY) })!;
        if (!reports) return { loads: [], violations: [] };
        const { windows } = windowCount.get({ ...at, cap: windowCap(reports, fingerprints) })!;
        const byWindow = byWindows(windows, fingerprints, reports);
        const loads = (byWindow ? loadsByWindow : loadsByProbe).all(at).map(loadOf);
        if (!loads.length) return { loads, violations: [] };
        const [from, to] = [loads[0]!.received_at - COPY_WINDOW_MS, loads.at(-1)!.received_at + COPY_WINDOW_MS];
        return { loads, violations: violationsBetween.all({ site: siteKey, from, to, limit }).map(violationOf) };
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
    } satisfies Pick<ErrorReportStore, 'daily' | 'hourly' | 'blockedLoads' | 'sessions' | 'visitors' | 'latest' | 'breakdown'>,
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
