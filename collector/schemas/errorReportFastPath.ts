import { MAX_ERROR_CAUSES, MAX_ERROR_REPORTS_PER_REQUEST, MAX_RELEASE_LENGTH } from '../../beacon/lib/wire';
import type { ErrorCause, ErrorReport } from '../core/records';
import { everyOrNone, MAX_EXTRA_JSON } from './fields';

/** The known fields (errorReport.ts `knownFields`): any other is extra. */
const KNOWN = new Set([
  'error_type', 'error_message', 'error_name', 'stack', 'source_url', 'line', 'column', 'page_url', 'timestamp', 'session_id', 'count', 'causes', 'release', 'environment',
]);

const isInteger = (value: unknown, min: number, max: number) => Number.isInteger(value) && (value as number) >= min && (value as number) <= max;

/** Copies a bounded string field when present: false when it is present and not a string. */
const copyBounded = (raw: Record<string, unknown>, record: Record<string, unknown>, key: string, max: number) => {
  if (!(key in raw)) return true;
  const value = raw[key];
  if (typeof value != 'string') return false;
  record[key] = value.length > max ? value.slice(0, max) : value;
  return true;
};

/** Copies a release or environment when present (errorReport.ts: never cut): false when it is present and not a string of at most MAX_RELEASE_LENGTH. */
const copyReleaseName = (raw: Record<string, unknown>, record: Record<string, unknown>, key: string) => {
  if (!(key in raw)) return true;
  const value = raw[key];
  if (typeof value != 'string' || value.length > MAX_RELEASE_LENGTH) return false;
  record[key] = value;
  return true;
};

/** Copies an integer field in [min, max] when present: false when it is present and not one. */
const copyInteger = (raw: Record<string, unknown>, record: Record<string, unknown>, key: string, min: number, max: number) => {
  if (!(key in raw)) return true;
  if (!isInteger(raw[key], min, max)) return false;
  record[key] = raw[key];
  return true;
};

/** One cause as errorReport.ts's ErrorCauseSchema makes it (its fields only, cut to its bounds), or undefined. */
const fastCause = (input: unknown): ErrorCause | undefined => {
  if (!input || typeof input != 'object' || Array.isArray(input)) return undefined;
  const raw = input as Record<string, unknown>;
  const message = raw.error_message;
  if (typeof message != 'string') return undefined;
  const cause: Record<string, unknown> = {};
  if (!copyBounded(raw, cause, 'error_name', 200)) return undefined;
  cause.error_message = message.length > 2000 ? message.slice(0, 2000) : message;
  if (!copyBounded(raw, cause, 'stack', 16_000)) return undefined;
  if ('aggregate' in raw) {
    if (typeof raw.aggregate != 'boolean') return undefined;
    cause.aggregate = raw.aggregate;
  }
  return cause as unknown as ErrorCause;
};

/** Copies `causes` when present (an array of at most MAX_ERROR_CAUSES causes, empty included): false when it is present and not one. */
const copyCauses = (raw: Record<string, unknown>, record: Record<string, unknown>) => {
  if (!('causes' in raw)) return true;
  const causes = raw.causes;
  if (!Array.isArray(causes) || causes.length > MAX_ERROR_CAUSES) return false;
  const copied: ErrorCause[] = [];
  for (const item of causes) {
    const cause = fastCause(item);
    if (!cause) return false;
    copied.push(cause);
  }
  record.causes = copied;
  return true;
};

/**
 * One report in the common shape, as ErrorReportSchema makes it, without valibot; undefined for
 * anything else (a field of the wrong type or out of range, a reserved key), which valibot then
 * judges and describes. Same fields, same cuts, same `extra` (a null-prototype object, kept when
 * its JSON is at most MAX_EXTRA_JSON characters).
 */
const fastReport = (input: unknown): ErrorReport | undefined => {
  if (!input || typeof input != 'object' || Array.isArray(input)) return undefined;
  const raw = input as Record<string, unknown>;
  const type = raw.error_type;
  const message = raw.error_message;
  if (typeof type != 'string' || type.length < 1 || type.length > 64 || typeof message != 'string') return undefined;
  const record: Record<string, unknown> = { error_type: type, error_message: message.length > 2000 ? message.slice(0, 2000) : message };
  // errorReport.ts's fields, in its order, with its bounds (strings cut, never refused).
  const known =
    copyBounded(raw, record, 'error_name', 200) &&
    copyBounded(raw, record, 'stack', 16_000) &&
    copyBounded(raw, record, 'source_url', 2048) &&
    copyInteger(raw, record, 'line', 0, 2 ** 31) &&
    copyInteger(raw, record, 'column', 0, 2 ** 31) &&
    copyBounded(raw, record, 'page_url', 2048);
  if (!known) return undefined;
  if ('timestamp' in raw) {
    if (typeof raw.timestamp != 'number' || !Number.isFinite(raw.timestamp)) return undefined;
    record.timestamp = raw.timestamp;
  }
  if (!copyBounded(raw, record, 'session_id', 128) || !copyInteger(raw, record, 'count', 1, 1_000_000) || !copyCauses(raw, record)) return undefined;
  if (!copyReleaseName(raw, record, 'release') || !copyReleaseName(raw, record, 'environment')) return undefined;
  let extra: Record<string, unknown> | undefined;
  for (const key in raw) {
    if (KNOWN.has(key)) continue;
    // Keys valibot skips and errorReport.ts puts back (fields.ts withReservedFields): its path.
    if (key == '__proto__' || key == 'constructor' || key == 'prototype' || !Object.hasOwn(raw, key)) return undefined;
    extra ??= Object.create(null) as Record<string, unknown>;
    extra[key] = raw[key];
  }
  if (extra) {
    const json = JSON.stringify(extra);
    if (json.length > 2 && json.length <= MAX_EXTRA_JSON) record.extra = extra;
  }
  return record as unknown as ErrorReport;
};

/**
 * The error endpoints' body in its common shape (docs/performance.md, "The HTTP thread": validation
 * was a large share of the HTTP thread's time): one report or an array of 1 to 50, each with its known fields of the right types
 * and ranges, validated and shaped exactly as ErrorReportsSchema's valibot path does, in one pass.
 * Undefined when any of it is not that shape: the valibot path then judges it (and names what is
 * wrong). errorReportFastPath.test.ts checks both paths agree on arbitrary input.
 *
 * @example
 * fastErrorReports({ error_type: 'javascript_error', error_message: 'x is not defined' }); // [ {...} ]
 * fastErrorReports({ error_type: '' }); // undefined: valibot answers
 */
export const fastErrorReports = (value: unknown): ErrorReport[] | undefined => {
  if (!Array.isArray(value)) {
    const report = fastReport(value);
    return report && [report];
  }
  return everyOrNone(value, MAX_ERROR_REPORTS_PER_REQUEST, fastReport);
};
