import type { StoredCspReport, StoredErrorReport } from '../collector/index';

/** What a matcher concluded from one read of the collector. */
export interface Verdict {
  pass: boolean;
  /** Waiting cannot change it: stored reports only accumulate (an error once stored stays stored). */
  final: boolean;
  /** What the matcher asked for, in words: the "Expected:" line. */
  expected: string;
  /** What the collector holds, in words: the "Received:" line and the records under it. */
  received: string;
  /** Things the matcher did not check, and why (a vital this browser cannot measure). */
  notes?: string[];
}

/** A string is looked for in the field, a RegExp tested against it. */
export type TextMatch = string | RegExp;

/** Filter of `toHaveReceivedError`. */
export interface ErrorFilter {
  /** The error's message contains this string, or matches this RegExp. */
  message?: TextMatch;
  /** `error_type`: `javascript_error`, `unhandled_rejection`, `resource_error` or `manual`. */
  type?: string;
}

/** Filter of `toHaveReceivedCspViolation`. */
export interface CspFilter {
  /** The effective directive (`script-src-elem`), or the first word of the violated one (`script-src`). */
  directive?: string;
  /** The blocked URI contains this string, or matches this RegExp (`inline`, `eval`, a URL). */
  blockedUri?: TextMatch;
}

/** Records listed in a message; the rest are counted. */
const LISTED = 10;

const matches = (value: string | undefined, match: TextMatch) =>
  typeof match == 'string' ? (value ?? '').includes(match) : match.test(value ?? '');

const describeMatch = (match: TextMatch) => (typeof match == 'string' ? JSON.stringify(match) : String(match));

const plural = (count: number, one: string) => `${count} ${one}${count == 1 ? '' : 's'}`;

const list = <T>(records: T[], line: (record: T) => string) =>
  records
    .slice(0, LISTED)
    .map((record, index) => `\n  ${index + 1}. ${line(record).replace(/\n/g, '\n     ')}`)
    .join('') + (records.length > LISTED ? `\n  … and ${records.length - LISTED} more` : '');

const where = (source: string | undefined, line: number | undefined, column: number | undefined) =>
  source ? `${source}${line ? `:${line}${column ? `:${column}` : ''}` : ''}` : 'no source';

/**
 * An error report as a message lists it: the message with its name, then type, source and line, page.
 *
 * @example
 * describeError({ error_type: 'javascript_error', error_name: 'TypeError', error_message: 'x', source_url: 'https://a/app.js', line: 3, page_url: 'https://a/' })
 * // 'TypeError: x\ntype javascript_error, source https://a/app.js:3, page https://a/'
 */
export const describeError = (error: Pick<StoredErrorReport, 'error_type' | 'error_message' | 'error_name' | 'source_url' | 'line' | 'column' | 'page_url' | 'count'>) =>
  `${error.error_name ? `${error.error_name}: ` : ''}${error.error_message}${error.count && error.count > 1 ? ` (${error.count} times)` : ''}\n` +
  `type ${error.error_type}, source ${where(error.source_url, error.line, error.column)}, page ${error.page_url ?? 'unknown'}`;

/**
 * A CSP violation as a message lists it: directive and blocked URI, then where and how.
 *
 * @example
 * describeViolation({ effective_directive: 'img-src', blocked_uri: 'https://evil.example/x.png', document_uri: 'https://a/', disposition: 'enforce' })
 */
export const describeViolation = (
  report: Pick<StoredCspReport, 'effective_directive' | 'violated_directive' | 'blocked_uri' | 'document_uri' | 'source_file' | 'line_number' | 'column_number' | 'disposition'>,
) =>
  `${report.effective_directive ?? report.violated_directive ?? 'unknown directive'} blocked ${report.blocked_uri || '(no blocked URI)'}\n` +
  `source ${where(report.source_file, report.line_number, report.column_number)}, page ${report.document_uri ?? 'unknown'}` +
  (report.disposition ? `, ${report.disposition == 'report' ? 'report-only' : report.disposition}` : '');

/**
 * `toHaveNoErrors()`: no error report stored.
 *
 * @example
 * noErrors([]).pass // true
 */
export const noErrors = (errors: StoredErrorReport[]): Verdict => ({
  pass: errors.length == 0,
  final: errors.length > 0,
  expected: 'no error reports',
  received: errors.length ? plural(errors.length, 'error report') + list(errors, describeError) : 'no error reports',
});

/**
 * `toHaveReceivedError(filter)`: at least one stored error report matches.
 *
 * @example
 * receivedError(errors, { message: 'cart is empty', type: 'javascript_error' }).pass
 */
export const receivedError = (errors: StoredErrorReport[], filter: ErrorFilter = {}): Verdict => {
  const found = errors.filter(
    (error) => (filter.message === undefined || matches(error.error_message, filter.message)) && (filter.type === undefined || error.error_type == filter.type),
  );
  const wanted = [filter.message !== undefined && `message ${describeMatch(filter.message)}`, filter.type !== undefined && `type ${filter.type}`].filter(Boolean);
  return {
    pass: found.length > 0,
    final: found.length > 0,
    expected: `an error report${wanted.length ? ` with ${wanted.join(' and ')}` : ''}`,
    received: found.length
      ? `${plural(found.length, 'matching error report')}${list(found, describeError)}`
      : errors.length
        ? `${plural(errors.length, 'error report')}, none matching${list(errors, describeError)}`
        : 'no error reports',
  };
};

/**
 * `toHaveNoCspViolations()`: no CSP violation stored (enforced or report-only).
 *
 * @example
 * noCspViolations([]).pass // true
 */
export const noCspViolations = (violations: StoredCspReport[]): Verdict => ({
  pass: violations.length == 0,
  final: violations.length > 0,
  expected: 'no CSP violations',
  received: violations.length ? plural(violations.length, 'CSP violation') + list(violations, describeViolation) : 'no CSP violations',
});

/**
 * `toHaveReceivedCspViolation(filter)`: at least one stored violation matches.
 *
 * @example
 * receivedCspViolation(violations, { directive: 'img-src', blockedUri: 'evil.example' }).pass
 */
export const receivedCspViolation = (violations: StoredCspReport[], filter: CspFilter = {}): Verdict => {
  const found = violations.filter(
    (report) =>
      (filter.directive === undefined ||
        report.effective_directive == filter.directive ||
        report.violated_directive?.split(/\s/)[0] == filter.directive) &&
      (filter.blockedUri === undefined || matches(report.blocked_uri, filter.blockedUri)),
  );
  const wanted = [filter.directive !== undefined && `directive ${filter.directive}`, filter.blockedUri !== undefined && `blocked URI ${describeMatch(filter.blockedUri)}`].filter(Boolean);
  return {
    pass: found.length > 0,
    final: found.length > 0,
    expected: `a CSP violation${wanted.length ? ` with ${wanted.join(' and ')}` : ''}`,
    received: found.length
      ? `${plural(found.length, 'matching CSP violation')}${list(found, describeViolation)}`
      : violations.length
        ? `${plural(violations.length, 'CSP violation')}, none matching${list(violations, describeViolation)}`
        : 'no CSP violations',
  };
};
