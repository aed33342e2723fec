/**
 * A CSP report's own columns, both stores: what SQLite's writer thread gets for each report, in this
 * order (sqlite/cspRows.ts), and what a merged browser report replaces (core/cspCopies.ts).
 */
export const CSP_REPORT_COLUMNS = [
  'report_type', 'document_uri', 'referrer', 'violated_directive', 'effective_directive', 'original_policy',
  'disposition', 'blocked_uri', 'source_file', 'line_number', 'column_number', 'status_code', 'script_sample', 'age',
  'body', 'extra', 'blocked_host', 'source', 'violation_key',
] as const;

/** Every column a stored CSP report is inserted with, in both stores' order. */
export const CSP_COLUMNS = ['site_key', 'received_at', 'user_agent', 'visitor', ...CSP_REPORT_COLUMNS, 'sources', 'awaiting'] as const;

/** A stored report's disposition as CSP groups count it, in SQL (core/cspDisposition.ts, `groupDisposition`). */
export const GROUP_DISPOSITION = `CASE WHEN disposition = 'enforce' THEN 'enforce' ELSE 'report' END`;
