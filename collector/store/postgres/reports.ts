import type { StoredCspReport, StoredErrorReport } from '../../core/records';
import type { CspGroup, ErrorGroupRow } from '../../core/summary';
import type { CspEvidence, CspReportStore } from '../contract/cspReports';
import type { ErrorReportStore } from '../contract/errorReports';
import { GROUP_DISPOSITION } from '../cspReportColumns';
import { hasCopies } from './cspCopies';
import type { Write } from './groupCommit';
import type { Pool } from './pool';
import { pagedList, run } from './rows';

const DAY = 86_400_000;

// $1 site, $2 since (ms), $3 the day `since` falls in, $4 limit, $5 the error types left out (a JSON
// array, as the excluded parts of the SQLite query), $6 the only error types kept (a JSON array, or
// null for all), $7 the one fingerprint (with `filter`). Whole
// days after `since` come from the per-day aggregates, the day of `since` from the reports
// themselves: exact for any `since`, as sqlite/reports.ts. The group's type, name and message are
// those of its latest part. Two statements rather than `($6 IS NULL OR ...)`, which a generic plan
// of the prepared statement could not narrow to the fingerprint indexes.
const errorGroupsOf = (filter: string) => `WITH parts AS (
    SELECT fingerprint, reports, count, first_seen, last_seen, error_type, error_name, error_message
    FROM error_groups WHERE site_key = $1 ${filter} AND day > $3
    UNION ALL
    SELECT fingerprint, COUNT(*), SUM(coalesce(count, 1)), MIN(received_at), MAX(received_at),
      (array_agg(error_type ORDER BY received_at DESC, id DESC))[1], (array_agg(error_name ORDER BY received_at DESC, id DESC))[1],
      (array_agg(error_message ORDER BY received_at DESC, id DESC))[1]
    FROM error_reports WHERE site_key = $1 ${filter} AND received_at >= $2 AND received_at < ($3 + 1) * ${DAY}
    GROUP BY fingerprint
  ),
  kept AS (
    SELECT * FROM parts WHERE error_type NOT IN (SELECT jsonb_array_elements_text($5::jsonb))
      AND ($6::jsonb IS NULL OR error_type IN (SELECT jsonb_array_elements_text($6::jsonb)))
  )
  SELECT fingerprint, (array_agg(error_type ORDER BY last_seen DESC))[1] AS error_type,
    (array_agg(error_name ORDER BY last_seen DESC))[1] AS error_name, (array_agg(error_message ORDER BY last_seen DESC))[1] AS error_message,
    SUM(reports) AS reports, SUM(count) AS count, MIN(first_seen) AS first_seen, MAX(last_seen) AS last_seen
  FROM kept GROUP BY fingerprint ORDER BY count DESC, last_seen DESC, fingerprint LIMIT $4`;
const ERROR_GROUPS = errorGroupsOf('');
const ONE_ERROR_GROUP = errorGroupsOf('AND fingerprint = $7');

const CSP_GROUPS = `WITH parts AS (
    SELECT directive, blocked_host, disposition, reports FROM csp_groups WHERE site_key = $1 AND day > $3
    UNION ALL
    SELECT effective_directive, coalesce(blocked_host, ''), ${GROUP_DISPOSITION}, COUNT(*) FROM csp_reports
    WHERE site_key = $1 AND received_at >= $2 AND received_at < ($3 + 1) * ${DAY}
      AND report_type = 'csp-violation' AND effective_directive IS NOT NULL
    GROUP BY 1, 2, 3
  )
  SELECT directive, blocked_host, disposition, SUM(reports) AS reports FROM parts GROUP BY directive, blocked_host, disposition
  ORDER BY disposition = 'report', reports DESC, directive COLLATE "C", blocked_host COLLATE "C" LIMIT $4`;

// The `limit` largest groups from the per-day aggregate (never a pass over the reports), each with
// one sample report found through csp_reports_by_directive (docs/hostile-input.md, "Bounded reads").
const EVIDENCE = `WITH top AS (
    SELECT directive, blocked_host, SUM(reports) AS reports FROM csp_groups WHERE site_key = $1
    GROUP BY directive, blocked_host ORDER BY reports DESC, directive COLLATE "C", blocked_host COLLATE "C" LIMIT $2
  )
  SELECT top.directive, sample.blocked_uri, sample.document_uri, top.reports
  FROM top JOIN LATERAL (
    SELECT blocked_uri, document_uri FROM csp_reports
    WHERE site_key = $1 AND effective_directive = top.directive AND blocked_host = top.blocked_host LIMIT 1
  ) AS sample ON true
  ORDER BY top.reports DESC, top.directive COLLATE "C", top.blocked_host COLLATE "C"`;

/**
 * Error and CSP reports in PostgreSQL. Inserts go into the group commit's batch (batch.ts: one
 * multi-row INSERT per table and group, the per-day aggregates `error_groups` and `csp_groups`
 * kept in the same transaction); the summary reads the aggregates as sqlite/reports.ts does.
 */
export const postgresReports = (
  pool: Pool,
  write: Write,
) => {
  const range = (site: string, since = 0, limit = 50) => [site, since, Math.floor(since / DAY), limit];
  const listErrors = pagedList<StoredErrorReport>(pool, 'error_reports', 'received_at');
  const listCsp = pagedList<StoredCspReport>(pool, 'csp_reports', 'received_at');
  return {
    errors: {
      insert: (siteKey, reports, context) => write({ siteKey, add: (batch) => batch.addErrors(siteKey, reports, context) }),
      list: listErrors,
      async groups(siteKey, { since, limit, fingerprint, excludeTypes = [], types } = {}) {
        const params = [...range(siteKey, since, limit), excludeTypes, types ?? null];
        const { rows } =
          fingerprint === undefined
            ? await run<ErrorGroupRow>(pool, ERROR_GROUPS, params, 'error_groups')
            : await run<ErrorGroupRow>(pool, ONE_ERROR_GROUP, [...params, fingerprint], 'one_error_group');
        return rows;
      },
    } satisfies Pick<ErrorReportStore, 'insert' | 'list' | 'groups'>,
    csp: {
      // Reports that may be copies of a stored violation are matched against the stored ones when the
      // group's batch is written (cspCopies.ts); the others go straight into its multi-row INSERT.
      insert: (siteKey, reports, context) =>
        write({ siteKey, add: (batch) => (hasCopies(reports) ? batch.addCspCopies(siteKey, reports, context) : batch.addCsp(siteKey, reports, context)) }),
      list: listCsp,
      async groups(siteKey, { since, limit } = {}) {
        return (await run<CspGroup>(pool, CSP_GROUPS, range(siteKey, since, limit), 'csp_groups')).rows;
      },
      async evidence(siteKey, { limit }) {
        return (await run<CspEvidence>(pool, EVIDENCE, [siteKey, limit], 'csp_evidence')).rows;
      },
    } satisfies Omit<CspReportStore, 'daily' | 'hourly'>,
  };
};
