import type { Database } from 'better-sqlite3';
import type { NewCspReport, NewErrorReport, ReceiveContext, StoredCspReport, StoredErrorReport } from '../../core/records';
import type { CspGroup, ErrorGroupRow } from '../../core/summary';
import type { CspEvidence, CspReportStore, ErrorReportStore } from '../contract';
import type { Write } from './groupCommit';
import { pagedList, positionalInsertSql, toValues } from './rows';

const DAY = 86_400_000;

const ERROR_COLUMNS = [
  'site_key', 'received_at', 'user_agent', 'error_type', 'error_message', 'error_name', 'stack', 'source_url',
  'line', 'column', 'page_url', 'timestamp', 'session_id', 'count', 'extra', 'fingerprint',
] as const;

const CSP_COLUMNS = [
  'site_key', 'received_at', 'user_agent', 'report_type', 'document_uri', 'referrer', 'violated_directive',
  'effective_directive', 'original_policy', 'disposition', 'blocked_uri', 'source_file', 'line_number',
  'column_number', 'status_code', 'script_sample', 'age', 'body', 'extra', 'blocked_host',
] as const;

/**
 * Error and CSP reports in SQLite. Each insert also folds its reports into per-day aggregates
 * (`error_groups`, `csp_groups`), so the summary reads thousands of rows, not millions: whole days
 * after `since` come from the aggregates, the day `since` falls in from the reports themselves
 * (at most a day of them, by the (site_key, received_at) index). Exact for any `since`.
 */
export const sqliteReports = (
  db: Database,
  write: Write,
): { errors: Pick<ErrorReportStore, 'insert' | 'list' | 'groups'>; csp: Omit<CspReportStore, 'daily'> } => {
  const insertError = db.prepare(positionalInsertSql('error_reports', ERROR_COLUMNS));
  const upsertErrorGroup = db.prepare(
    `INSERT INTO error_groups VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (site_key, fingerprint, day) DO UPDATE SET reports = reports + excluded.reports, count = count + excluded.count,
       first_seen = min(first_seen, excluded.first_seen), last_seen = max(last_seen, excluded.last_seen),
       error_type = excluded.error_type, error_name = excluded.error_name, error_message = excluded.error_message`,
  );
  const insertCsp = db.prepare(positionalInsertSql('csp_reports', CSP_COLUMNS));
  const upsertCspGroup = db.prepare(
    `INSERT INTO csp_groups VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (site_key, directive, blocked_host, day) DO UPDATE SET reports = reports + excluded.reports`,
  );
  const errorGroupsOf = (filter: string) => db.prepare<{ site: string; since: number; day: number; limit: number; fingerprint?: string }, ErrorGroupRow>(
    `WITH parts AS (
       SELECT fingerprint, reports, count, first_seen, last_seen, error_type, error_name, error_message
       FROM error_groups WHERE site_key = @site ${filter} AND day > @day
       UNION ALL
       SELECT fingerprint, COUNT(*), SUM(coalesce(count, 1)), MIN(received_at), MAX(received_at), error_type, error_name, error_message
       FROM error_reports WHERE site_key = @site ${filter} AND received_at >= @since AND received_at < (@day + 1) * ${DAY}
       GROUP BY fingerprint
     )
     SELECT fingerprint, error_type, error_name, error_message, SUM(reports) AS reports, SUM(count) AS count,
       MIN(first_seen) AS first_seen, MAX(last_seen) AS last_seen
     FROM parts GROUP BY fingerprint ORDER BY count DESC, last_seen DESC LIMIT @limit`,
  );
  const errorGroups = errorGroupsOf('');
  // One group (the dashboard's group page) through the fingerprint indexes.
  const oneErrorGroup = errorGroupsOf('AND fingerprint = @fingerprint');
  const cspGroups = db.prepare<{ site: string; since: number; day: number; limit: number }, CspGroup>(
    `WITH parts AS (
       SELECT directive, blocked_host, reports FROM csp_groups WHERE site_key = @site AND day > @day
       UNION ALL
       SELECT effective_directive, coalesce(blocked_host, ''), COUNT(*) FROM csp_reports
       WHERE site_key = @site AND received_at >= @since AND received_at < (@day + 1) * ${DAY}
         AND report_type = 'csp-violation' AND effective_directive IS NOT NULL
       GROUP BY effective_directive, coalesce(blocked_host, '')
     )
     SELECT directive, blocked_host, SUM(reports) AS reports FROM parts GROUP BY directive, blocked_host
     ORDER BY reports DESC, directive, blocked_host LIMIT @limit`,
  );
  // The `limit` largest groups by report count, from the per-day aggregate kept at insert (one pass
  // over the site's csp_groups rows, never over its reports: 50,000 distinct hosts cost ~25 ms, not
  // ~120), each with one sample report found through csp_reports_by_directive for its URI and page.
  const selectEvidence = db.prepare<{ site: string; limit: number }, CspEvidence>(
    `WITH top AS (
       SELECT directive, blocked_host, SUM(reports) AS reports FROM csp_groups WHERE site_key = @site
       GROUP BY directive, blocked_host ORDER BY reports DESC, directive, blocked_host LIMIT @limit
     )
     SELECT top.directive, sample.blocked_uri, sample.document_uri, top.reports
     FROM top JOIN csp_reports AS sample ON sample.rowid = (
       SELECT rowid FROM csp_reports WHERE site_key = @site AND effective_directive = top.directive AND blocked_host = top.blocked_host LIMIT 1
     )
     ORDER BY top.reports DESC, top.directive, top.blocked_host`,
  );
  const range = (site: string, since = 0, limit = 50) => ({ site, since, day: Math.floor(since / DAY), limit });
  const base = (siteKey: string, context: ReceiveContext) => ({
    site_key: siteKey,
    received_at: context.received_at,
    user_agent: context.user_agent,
  });

  const storeErrors = (siteKey: string, reports: NewErrorReport[], context: ReceiveContext) => {
    // One aggregate upsert per group in this write, not one per report.
    const groups = new Map<string, { reports: number; count: number; sample: NewErrorReport }>();
    for (const report of reports) {
      insertError.run(toValues(ERROR_COLUMNS, { ...report, ...base(siteKey, context) }));
      const group = groups.get(report.fingerprint) ?? { reports: 0, count: 0, sample: report };
      group.reports += 1;
      group.count += report.count ?? 1;
      group.sample = report;
      groups.set(report.fingerprint, group);
    }
    const day = Math.floor(context.received_at / DAY);
    for (const [fingerprint, { reports: count, count: occurrences, sample }] of groups) {
      upsertErrorGroup.run(
        siteKey, fingerprint, day, count, occurrences, context.received_at, context.received_at,
        sample.error_type, sample.error_name ?? null, sample.error_message,
      );
    }
    return reports.length;
  };

  const storeCsp = (siteKey: string, reports: NewCspReport[], context: ReceiveContext) => {
    const groups = new Map<string, { directive: string; host: string; count: number }>();
    for (const report of reports) {
      insertCsp.run(toValues(CSP_COLUMNS, { ...report, ...base(siteKey, context) }));
      if (report.report_type != 'csp-violation' || !report.effective_directive) continue;
      const key = `${report.effective_directive}\n${report.blocked_host}`;
      const group = groups.get(key) ?? { directive: report.effective_directive, host: report.blocked_host, count: 0 };
      group.count += 1;
      groups.set(key, group);
    }
    const day = Math.floor(context.received_at / DAY);
    for (const { directive, host, count } of groups.values()) upsertCspGroup.run(siteKey, directive, host, day, count);
    return reports.length;
  };

  const listErrors = pagedList<StoredErrorReport>(db, 'error_reports', 'received_at');
  const listCsp = pagedList<StoredCspReport>(db, 'csp_reports', 'received_at');
  return {
    errors: {
      insert: (siteKey, reports, context) => write(() => storeErrors(siteKey, reports, context)),
      async list(siteKey, options) {
        return listErrors(siteKey, options);
      },
      async groups(siteKey, { since, limit, fingerprint } = {}) {
        return fingerprint === undefined
          ? errorGroups.all(range(siteKey, since, limit))
          : oneErrorGroup.all({ ...range(siteKey, since, limit), fingerprint });
      },
    },
    csp: {
      insert: (siteKey, reports, context) => write(() => storeCsp(siteKey, reports, context)),
      async list(siteKey, options) {
        return listCsp(siteKey, options);
      },
      async groups(siteKey, { since, limit } = {}) {
        return cspGroups.all(range(siteKey, since, limit));
      },
      async evidence(siteKey, { limit }) {
        return selectEvidence.all({ site: siteKey, limit });
      },
    },
  };
};
