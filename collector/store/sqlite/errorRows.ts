import type { NewErrorReport } from '../../core/records';
import { storedText } from '../storedText';
import { toColumnValue } from './rows';

/**
 * An error report's own columns, in the order of ErrorRow: what the HTTP thread sends the writer
 * thread (reportQueue.ts) for each report. Arrays of values, not objects: structured clone writes
 * no field names, and the writer thread's young generation holds a whole group (docs/performance.md,
 * "The writer thread").
 */
export const ERROR_ROW_COLUMNS = [
  'error_type', 'error_message', 'error_name', 'stack', 'source_url', 'line', 'column', 'page_url', 'timestamp',
  'session_id', 'count', 'extra', 'fingerprint', 'causes', 'release', 'environment',
] as const;

/** One report as SQLite binds it: values in ERROR_ROW_COLUMNS order, absent as null, `extra` and `causes` as JSON, text as every store keeps it (../storedText.ts). */
export type ErrorRow = Array<string | number | null>;

/** Where the aggregates' fields are in an ErrorRow. */
export const ERROR_ROW = { type: 0, message: 1, name: 2, page: 7, count: 10, fingerprint: 12, release: 14, environment: 15 } as const;

/** `causes` as JSON, or null when there are none (an empty list reads back as no causes). */
const causesColumn = (causes: NewErrorReport['causes']) => (causes?.length ? (toColumnValue(causes) as string) : null);

/**
 * Reports as ErrorRows.
 *
 * @example
 * errorRows([newErrorReport({ error_type: 'js', error_message: 'm' })]); // [['js', 'm', null, ..., '3f2a...']]
 */
const text = (value: string | undefined) => (value === undefined ? null : storedText(value));

export const errorRows = (reports: readonly NewErrorReport[]): ErrorRow[] =>
  reports.map((report) => [
    storedText(report.error_type), storedText(report.error_message), text(report.error_name), text(report.stack), text(report.source_url),
    report.line ?? null, report.column ?? null, text(report.page_url), report.timestamp ?? null, text(report.session_id),
    report.count ?? null, toColumnValue(report.extra) as string | null, report.fingerprint, causesColumn(report.causes),
    text(report.release), text(report.environment),
  ]);
