import type { Database } from 'better-sqlite3';
import type { NewCspReport, NewErrorReport, ReceiveContext, StoredCspReport, StoredErrorReport } from '../../core/records';
import type { CspGroup, ErrorGroupRow } from '../../core/summary';
import type { CspEvidence, CspReportStore, ErrorReportStore } from '../contract';
import { COPY_WINDOW_MS, copyToMergeInto, replacesStoredFields } from '../../core/cspCopies';
import type { Write } from './groupCommit';
import { pagedList, positionalInsertSql, toValues } from './rows';
import { underSite } from './underSite';

const DAY = 86_400_000;

const ERROR_COLUMNS = [
  'site_key', 'received_at', 'user_agent', 'error_type', 'error_message', 'error_name', 'stack', 'source_url',
  'line', 'column', 'page_url', 'timestamp', 'session_id', 'count', 'extra', 'fingerprint',
] as const;

/** A CSP report's own fields: what a merged browser report replaces (core/cspCopies.ts). */
const CSP_REPORT_COLUMNS = [
  'report_type', 'document_uri', 'referrer', 'violated_directive', 'effective_directive', 'original_policy',
  'disposition', 'blocked_uri', 'source_file', 'line_number', 'column_number', 'status_code', 'script_sample', 'age',
  'body', 'extra', 'blocked_host', 'source', 'violation_key',
] as const;
const CSP_COLUMNS = ['site_key', 'received_at', 'user_agent', ...CSP_REPORT_COLUMNS, 'sources'] as const;

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
  const siteWrite = underSite(db);
  const insertError = db.prepare(positionalInsertSql('error_reports', ERROR_COLUMNS));
  const upsertErrorGroup = db.prepare(
    `INSERT INTO error_groups VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (site_key, fingerprint, day) DO UPDATE SET reports = reports + excluded.reports, count = count + excluded.count,
       first_seen = min(first_seen, excluded.first_seen), last_seen = max(last_seen, excluded.last_seen),
       error_type = excluded.error_type, error_name = excluded.error_name, error_message = excluded.error_message`,
  );
  const insertCsp = db.prepare(positionalInsertSql('csp_reports', CSP_COLUMNS));
  // Copies of one violation (issue 12), through csp_reports_by_violation.
  const selectCopies = db.prepare<[string, string, number, number], { id: number; sources: string | null }>(
    'SELECT id, sources FROM csp_reports WHERE site_key = ? AND violation_key = ? AND received_at BETWEEN ? AND ? ORDER BY id',
  );
  const updateSources = db.prepare('UPDATE csp_reports SET sources = ? WHERE id = ?');
  const replaceReport = db.prepare(
    `UPDATE csp_reports SET ${CSP_REPORT_COLUMNS.map((column) => `"${column}" = ?`).join(', ')}, sources = ? WHERE id = ?`,
  );
  const upsertCspGroup = db.prepare(
    `INSERT INTO csp_groups VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (site_key, directive, blocked_host, day) DO UPDATE SET reports = reports + excluded.reports`,
  );
  // `excluded` is a JSON array of error types whose groups are left out; `types`, if not null, of the only ones kept.
  const errorGroupsOf = (filter: string) => db.prepare<{ site: string; since: number; day: number; limit: number; excluded: string; types: string | null; fingerprint?: string }, ErrorGroupRow>(
    // Counts per group first, then the texts of the `limit` kept: GROUP BY fingerprint over the
    // aggregate's rows streams in its primary key's order, and the sorter of the union groups and
    // orders numbers only, where it carried every part's texts before (7 days at 1,000,000 reports:
    // 1.76 -> 1.31 million VM steps, 30 days: 5.3 -> 2.4 million). A fingerprint hashes its error
    // type (core/fingerprint.ts), so the types are filtered per group. The texts are the latest
    // report's in range: its day's aggregate row keeps the last report stored that day.
    `WITH parts AS (
       SELECT fingerprint, error_type, SUM(reports) AS reports, SUM(count) AS count, MIN(first_seen) AS first_seen, MAX(last_seen) AS last_seen
       FROM error_groups WHERE site_key = @site ${filter} AND day > @day GROUP BY fingerprint
       UNION ALL
       SELECT fingerprint, error_type, COUNT(*), SUM(coalesce(count, 1)), MIN(received_at), MAX(received_at)
       FROM error_reports WHERE site_key = @site ${filter} AND received_at >= @since AND received_at < (@day + 1) * ${DAY}
       GROUP BY fingerprint
     ),
     top AS (
       SELECT fingerprint, SUM(reports) AS reports, SUM(count) AS count, MIN(first_seen) AS first_seen, MAX(last_seen) AS last_seen
       FROM parts WHERE error_type NOT IN (SELECT value FROM json_each(@excluded))
         AND (@types IS NULL OR error_type IN (SELECT value FROM json_each(@types)))
       GROUP BY fingerprint ORDER BY count DESC, last_seen DESC, fingerprint LIMIT @limit
     )
     SELECT top.fingerprint, latest.error_type, latest.error_name, latest.error_message, top.reports, top.count, top.first_seen, top.last_seen
     FROM top JOIN error_groups AS latest ON latest.site_key = @site AND latest.fingerprint = top.fingerprint AND latest.day = (
       SELECT MAX(day) FROM error_groups WHERE site_key = @site AND fingerprint = top.fingerprint AND day >= @day
     )
     ORDER BY top.count DESC, top.last_seen DESC, top.fingerprint`,
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

  /** Merges `report` into a stored copy of its violation, if there is one to merge into; true if merged. */
  const mergeCopy = (siteKey: string, report: NewCspReport, receivedAt: number) => {
    if (!report.violation_key || !report.source) return false;
    const candidates = selectCopies
      .all(siteKey, report.violation_key, receivedAt - COPY_WINDOW_MS, receivedAt + COPY_WINDOW_MS)
      .map((row) => ({ id: row.id, sources: JSON.parse(row.sources ?? '[]') as string[] }));
    const target = copyToMergeInto(candidates, report.source);
    if (!target) return false;
    const sources = JSON.stringify([...target.sources, report.source]);
    if (replacesStoredFields(report.source)) replaceReport.run(...toValues(CSP_REPORT_COLUMNS, { ...report }), sources, target.id);
    else updateSources.run(sources, target.id);
    return true;
  };

  const storeCsp = (siteKey: string, reports: NewCspReport[], context: ReceiveContext) => {
    const groups = new Map<string, { directive: string; host: string; count: number }>();
    let stored = 0;
    for (const report of reports) {
      if (mergeCopy(siteKey, report, context.received_at)) continue;
      stored += 1;
      insertCsp.run(toValues(CSP_COLUMNS, { ...report, ...base(siteKey, context), sources: report.source ? [report.source] : undefined }));
      if (report.report_type != 'csp-violation' || !report.effective_directive) continue;
      const key = `${report.effective_directive}\n${report.blocked_host}`;
      const group = groups.get(key) ?? { directive: report.effective_directive, host: report.blocked_host, count: 0 };
      group.count += 1;
      groups.set(key, group);
    }
    const day = Math.floor(context.received_at / DAY);
    for (const { directive, host, count } of groups.values()) upsertCspGroup.run(siteKey, directive, host, day, count);
    return stored;
  };

  const listErrors = pagedList<StoredErrorReport>(db, 'error_reports', 'received_at');
  const listCsp = pagedList<StoredCspReport>(db, 'csp_reports', 'received_at');
  return {
    errors: {
      insert: (siteKey, reports, context) => write(siteWrite(siteKey, () => storeErrors(siteKey, reports, context))),
      async list(siteKey, options) {
        return listErrors(siteKey, options);
      },
      async groups(siteKey, { since, limit, fingerprint, excludeTypes = [], types } = {}) {
        const options = { ...range(siteKey, since, limit), excluded: JSON.stringify(excludeTypes), types: types ? JSON.stringify(types) : null };
        return fingerprint === undefined ? errorGroups.all(options) : oneErrorGroup.all({ ...options, fingerprint });
      },
    },
    csp: {
      insert: (siteKey, reports, context) => write(siteWrite(siteKey, () => storeCsp(siteKey, reports, context))),
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
