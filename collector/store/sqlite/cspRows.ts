import type { NewCspReport } from '../../core/records';
import { toValues } from './rows';

/**
 * A CSP report's own columns, in the order of CspRow: what the HTTP thread sends the writer thread
 * (reportQueue.ts) for each report, and what a merged browser report replaces (core/cspCopies.ts).
 * Arrays of values, not objects, as errorRows.ts says why: structured clone of an object of 19
 * fields was a seventh of the HTTP thread's time for single CSP reports (issue 13).
 */
export const CSP_ROW_COLUMNS = [
  'report_type', 'document_uri', 'referrer', 'violated_directive', 'effective_directive', 'original_policy',
  'disposition', 'blocked_uri', 'source_file', 'line_number', 'column_number', 'status_code', 'script_sample', 'age',
  'body', 'extra', 'blocked_host', 'source', 'violation_key',
] as const;

/** One report as SQLite binds it: values in CSP_ROW_COLUMNS order, absent as null, objects as JSON, text as every store keeps it. */
export type CspRow = Array<string | number | null>;

/** Where the writer's fields are in a CspRow. */
export const CSP_ROW = { type: 0, directive: 4, blockedHost: 16, source: 17, violationKey: 18 } as const;

/**
 * Reports as CspRows.
 *
 * @example
 * cspRows([newCspReport({ report_type: 'csp-violation', document_uri: 'https://shop.example/', effective_directive: 'img-src' })]);
 */
export const cspRows = (reports: readonly NewCspReport[]): CspRow[] =>
  reports.map((report) => toValues(CSP_ROW_COLUMNS, report as unknown as Record<string, unknown>) as CspRow);
