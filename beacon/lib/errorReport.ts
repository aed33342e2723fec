import type { WireErrorReport } from './wire';
import { setGiven } from './setGiven';

/** The design's error report (wire format, beacon to collector): ./wire.ts. */
export type ErrorReport = WireErrorReport;

/** Stacks are bounded: a deep recursion must not become a 100 KB report. */
const MAX_STACK = 4000;
const MAX_MESSAGE = 1000;

const describe = (value: unknown): string => {
  try {
    // A plain object reason says more as JSON than as "[object Object]".
    return typeof value == 'string' ? value : (JSON.stringify(value) ?? String(value));
  } catch {
    return String(value);
  }
};

/** Where an error came from, as an `ErrorEvent` says it: the message for a thrown value that is not an Error, the source, line and column. */
export type ErrorOrigin = Partial<Pick<ErrorEvent, 'message' | 'filename' | 'lineno' | 'colno'>>;

/**
 * Builds an error report from anything that was thrown or rejected, and where it came from when
 * the browser says (an `ErrorEvent` is passed as it is). Only what the browser gave is sent: an
 * empty name, stack or source and a zero line or column ("unknown") are left out, and URLs in the
 * message, the stack and the source lose their credentials and fragments.
 *
 * @example
 * toErrorReport('manual', new TypeError('x is undefined'))
 * toErrorReport('javascript_error', event.error, event) // event: an ErrorEvent
 */
export const toErrorReport = (
  type: ErrorReport['error_type'],
  thrown: unknown,
  { message, filename, lineno, colno }: ErrorOrigin = {},
): ErrorReport => {
  const error = thrown instanceof Error ? thrown : undefined;
  // error_message is required (spec section 2): set even when empty, then cleaned below when given.
  const report = { error_type: type, error_message: '', timestamp: Date.now() } as ErrorReport & Record<string, unknown>;
  const stack = error?.stack;
  const given: Record<string, unknown> = {
    // A thrown value that is not an Error has no message of its own: describe the value itself.
    error_message: (error ? error.message : message || describe(thrown)).slice(0, MAX_MESSAGE),
    page_url: location.href,
    error_name: error?.name,
    stack: typeof stack == 'string' && stack.slice(0, MAX_STACK),
    source_url: filename,
    line: lineno,
    column: colno,
  };
  for (const name in given) setGiven(report, name, given[name]);
  return report;
};
