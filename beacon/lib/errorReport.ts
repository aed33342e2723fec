import { cleanUrl } from './cleanUrl';

/** The design's error report (wire format, beacon to collector). */
export interface ErrorReport {
  error_type: 'javascript_error' | 'unhandled_rejection' | 'resource_error' | 'manual';
  error_message: string;
  error_name?: string;
  stack?: string;
  source_url?: string;
  line?: number;
  column?: number;
  page_url: string;
  timestamp: number;
  session_id?: string;
  count?: number;
  /** "Script error." from a cross-origin script served without CORS: no detail exists. */
  cross_origin?: boolean;
}

/** Stacks are bounded: a deep recursion must not become a 100 KB report. */
const MAX_STACK = 4000;
const MAX_MESSAGE = 1000;

const describe = (value: unknown): string => {
  if (typeof value === 'string') return value;
  try {
    // A plain object reason says more as JSON than as "[object Object]".
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
};

/**
 * Builds an error report from anything that was thrown or rejected.
 *
 * @example
 * toErrorReport(new TypeError('x is undefined'), 'manual')
 */
export const toErrorReport = (
  thrown: unknown,
  type: ErrorReport['error_type'],
  fallbackMessage?: string,
): ErrorReport => {
  const error = thrown instanceof Error ? thrown : undefined;
  // A thrown value that is not an Error has no message of its own: describe the value itself.
  const report: ErrorReport = {
    error_type: type,
    error_message: (error ? error.message : fallbackMessage || describe(thrown)).slice(0, MAX_MESSAGE),
    page_url: cleanUrl(location.href),
    timestamp: Date.now(),
  };
  if (error) {
    report.error_name = error.name;
    if (typeof error.stack === 'string') report.stack = error.stack.slice(0, MAX_STACK);
  }
  return report;
};
