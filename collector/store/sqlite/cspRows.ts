import type { NewCspReport } from '../../core/records';
import { CSP_REPORT_COLUMNS } from '../cspReportColumns';
import { toValues } from './rows';

/**
 * One report as the HTTP thread sends it to the writer thread (reportQueue.ts) and SQLite binds it:
 * an array of values, not an object, as errorRows.ts says why (structured clone of an object of
 * many fields was a large share of the HTTP thread's time for single CSP reports). Values in
 * CSP_REPORT_COLUMNS order, absent as null, objects as JSON, text as every store keeps it.
 */
export type CspRow = Array<string | number | null>;

const at = (column: (typeof CSP_REPORT_COLUMNS)[number]) => CSP_REPORT_COLUMNS.indexOf(column);

/** Where the writer's fields are in a CspRow. */
export const CSP_ROW = {
  type: at('report_type'),
  directive: at('effective_directive'),
  blockedHost: at('blocked_host'),
  disposition: at('disposition'),
  source: at('source'),
  violationKey: at('violation_key'),
};

/**
 * Reports as CspRows.
 *
 * @example
 * cspRows([newCspReport({ report_type: 'csp-violation', document_uri: 'https://shop.example/', effective_directive: 'img-src' })]);
 */
export const cspRows = (reports: readonly NewCspReport[]): CspRow[] =>
  reports.map((report) => toValues(CSP_REPORT_COLUMNS, report as unknown as Record<string, unknown>) as CspRow);
