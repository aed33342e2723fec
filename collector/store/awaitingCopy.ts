/**
 * Both stores' schema step to `csp_reports.awaiting` (SQLite's version 10, PostgreSQL's version 5):
 * the side each stored violation still awaits a copy from (core/cspCopies.ts awaitedSideOf, read
 * here from `sources` as that function reads them), indexed in place of the violation key alone.
 * The report a copy merges into is then the first index entry of its violation and side, not a
 * scan of every copy of the violation in the window. `id` last: the oldest first, in both stores.
 */
export const AWAITING_COPY = `ALTER TABLE csp_reports ADD COLUMN awaiting TEXT;
   UPDATE csp_reports SET awaiting = CASE
       WHEN sources LIKE '%"beacon"%' AND (sources LIKE '%"report-uri"%' OR sources LIKE '%"report-to"%') THEN NULL
       WHEN sources LIKE '%"beacon"%' THEN 'browser'
       WHEN sources LIKE '%"report-uri"%' OR sources LIKE '%"report-to"%' THEN 'beacon'
     END
     WHERE violation_key IS NOT NULL AND sources IS NOT NULL;
   DROP INDEX csp_reports_by_violation;
   CREATE INDEX csp_reports_awaiting_copy ON csp_reports (site_key, violation_key, awaiting, received_at, id) WHERE awaiting IS NOT NULL;`;

/**
 * The stored report a copy from `side` merges into (core/cspCopies.ts copyToMergeInto): the oldest
 * of its violation, within the window, awaiting that side. Parameters in order: site key, violation
 * key, side, window start, window end. SQLite's lookup, one per copy on the writer's own connection;
 * PostgreSQL reads those of a whole batch in one statement (postgres/cspCopies.ts SELECT_COPIES).
 */
export const SELECT_COPY_TO_MERGE_INTO = `SELECT id, sources FROM csp_reports
   WHERE site_key = ? AND violation_key = ? AND awaiting = ?
     AND received_at BETWEEN ? AND ?
   ORDER BY received_at, id LIMIT 1`;

/** The column of AWAITING_COPY: each store's own lookup, never part of a record (rows.ts toRecord). */
export const AWAITING_COLUMN = 'awaiting';
