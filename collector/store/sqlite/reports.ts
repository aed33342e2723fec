import type { Database } from 'better-sqlite3';
import type { StoredCspReport, StoredErrorReport } from '../../core/records';
import type { CspGroup, ErrorGroupRow } from '../../core/summary';
import type { CspEvidence, CspReportStore } from '../contract/cspReports';
import type { ErrorReportStore } from '../contract/errorReports';
import { GROUP_DISPOSITION } from '../cspReportColumns';
import { cspRows } from './cspRows';
import { errorRows } from './errorRows';
import type { ReportQueue } from './reportWrites';
import { pagedList } from './rows';

const DAY = 86_400_000;

/**
 * Error and CSP reports in SQLite. Each insert also folds its reports into per-day aggregates
 * (`error_groups`, `csp_groups`: reportWrites.ts), so the summary reads thousands of rows, not
 * millions: whole days after `since` come from the aggregates, the day `since` falls in from the
 * reports themselves (at most a day of them, by the (site_key, received_at) index). Exact for any
 * `since`. Inserts go through `queue` (reportQueue.ts: the writer thread).
 */
export const sqliteReports = (
  db: Database,
  queue: ReportQueue,
) => {
  // `excluded` is a JSON array of error types whose groups are left out; `types`, if not null, of the only ones kept.
  const errorGroupsOf = (filter: string) => db.prepare<{ site: string; since: number; day: number; limit: number; excluded: string; types: string | null; fingerprint?: string }, ErrorGroupRow>(
    // Counts per group first, then the texts of the `limit` kept: GROUP BY fingerprint over the
    // aggregate's rows streams in its primary key's order, and the sorter of the union groups and
    // orders numbers only, where it carried every part's texts before (far fewer VM steps
    // over a large site, the more the longer the range). A fingerprint hashes its error
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
       SELECT directive, blocked_host, disposition, reports FROM csp_groups WHERE site_key = @site AND day > @day
       UNION ALL
       SELECT effective_directive, coalesce(blocked_host, ''), ${GROUP_DISPOSITION}, COUNT(*) FROM csp_reports
       WHERE site_key = @site AND received_at >= @since AND received_at < (@day + 1) * ${DAY}
         AND report_type = 'csp-violation' AND effective_directive IS NOT NULL
       GROUP BY 1, 2, 3
     )
     SELECT directive, blocked_host, disposition, SUM(reports) AS reports FROM parts GROUP BY directive, blocked_host, disposition
     ORDER BY disposition = 'report', reports DESC, directive, blocked_host LIMIT @limit`,
  );
  // The `limit` largest groups by report count, from the per-day aggregate kept at insert (one pass
  // over the site's csp_groups rows, never over its reports, however many distinct hosts were
  // reported), each with one sample report found through csp_reports_by_directive for its URI and page.
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
  const listErrors = pagedList<StoredErrorReport>(db, 'error_reports', 'received_at');
  const listCsp = pagedList<StoredCspReport>(db, 'csp_reports', 'received_at');
  return {
    errors: {
      insert: (siteKey, reports, context) => queue.submit({ kind: 'errors', siteKey, rows: errorRows(reports), context }),
      async list(siteKey, options?) {
        return listErrors(siteKey, options);
      },
      async groups(siteKey, { since, limit, fingerprint, excludeTypes = [], types } = {}) {
        const options = { ...range(siteKey, since, limit), excluded: JSON.stringify(excludeTypes), types: types ? JSON.stringify(types) : null };
        return fingerprint === undefined ? errorGroups.all(options) : oneErrorGroup.all({ ...options, fingerprint });
      },
    } satisfies Pick<ErrorReportStore, 'insert' | 'list' | 'groups'>,
    csp: {
      insert: (siteKey, reports, context) => queue.submit({ kind: 'csp', siteKey, rows: cspRows(reports), context }),
      async list(siteKey, options?) {
        return listCsp(siteKey, options);
      },
      async groups(siteKey, { since, limit } = {}) {
        return cspGroups.all(range(siteKey, since, limit));
      },
      async evidence(siteKey, { limit }) {
        return selectEvidence.all({ site: siteKey, limit });
      },
    } satisfies Omit<CspReportStore, 'daily' | 'hourly'>,
  };
};
