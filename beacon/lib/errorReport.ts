import { MAX_ERROR_CAUSES, type WireErrorReport } from './wire';
import { describeValue } from './describeValue';

/** The error report of the wire format (docs/wire-format.md, "Error reports"): ./wire.ts. */
export type ErrorReport = WireErrorReport;

/** Stacks are bounded: a deep recursion must not become a 100 KB report. */
const MAX_STACK = 4000;
const MAX_MESSAGE = 1000;

/** Where an error came from, as an `ErrorEvent` says it: the message for a thrown value that is not an Error, the source, line and column. */
export type ErrorOrigin = Partial<Pick<ErrorEvent, 'message' | 'filename' | 'lineno' | 'colno'>>;

/**
 * What a thrown value says of itself: an Error's name, message and stack; any other value
 * described from the value (describeValue.ts), the same for a throw and a rejection in every
 * browser. `fallback` is the browser's own text, used only when it gave no value at all (a
 * cross-origin "Script error.", a failed resource load).
 */
const fieldsOf = (thrown: unknown, fallback?: string) => {
  // An ErrorEvent that is rejected or thrown stands for its error.
  if (thrown instanceof ErrorEvent) thrown = thrown.error;
  const error = thrown instanceof Error && thrown;
  const stack = error && error.stack;
  return {
    error_message: (error ? error.message : (thrown == null && fallback) || describeValue(thrown)).slice(0, MAX_MESSAGE),
    error_name: error && error.name,
    stack: typeof stack == 'string' ? stack.slice(0, MAX_STACK) : undefined,
  };
};

/**
 * An AggregateError's inner errors, then the `cause` chain, outermost first; at most
 * MAX_ERROR_CAUSES (a cause that is its own cause stops there too).
 */
const causesOf = (thrown: unknown) => {
  const causes: object[] = [];
  const add = (value: unknown, aggregate?: boolean) =>
    causes.length < MAX_ERROR_CAUSES && causes.push({ ...fieldsOf(value), aggregate });
  const inner = (thrown as AggregateError | undefined)?.errors;
  if (thrown instanceof Error && Array.isArray(inner)) for (const value of inner) add(value, true);
  for (let value = thrown; (value = (value as Error | undefined)?.cause) != null && add(value); );
  return causes.length && causes;
};

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
): ErrorReport =>
  ({
    error_type: type,
    ...fieldsOf(thrown, message),
    page_url: location.href,
    source_url: filename,
    line: lineno,
    column: colno,
    causes: causesOf(thrown),
    timestamp: Date.now(),
  }) as ErrorReport;
