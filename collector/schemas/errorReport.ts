import * as v from 'valibot';
import type { NewErrorReport } from '../store/store';
import { bounded, optionalBounded, optionalFinite, optionalInteger, splitExtra, withReservedFields } from './fields';

const knownFields = {
  error_type: v.pipe(v.string(), v.minLength(1, 'error_type must not be empty'), v.maxLength(64)),
  error_message: bounded(2000),
  error_name: optionalBounded(200),
  stack: optionalBounded(16_000),
  source_url: optionalBounded(2048),
  line: optionalInteger(0, 2 ** 31),
  column: optionalInteger(0, 2 ** 31),
  page_url: optionalBounded(2048),
  timestamp: optionalFinite(),
  session_id: optionalBounded(128),
  count: optionalInteger(1, 1_000_000),
};

/**
 * One error report (spec section 2: `error_type` and `error_message` are required; the design
 * adds the optional fields). Unknown fields are kept in `extra`.
 */
export const ErrorReportSchema = v.pipe(
  v.looseObject(knownFields),
  v.transform((input) => splitExtra<NewErrorReport>(input, knownFields)),
);

const SingleErrorReportSchema = v.pipe(ErrorReportSchema, v.transform((report) => [report]));

const ErrorReportArraySchema = v.pipe(
  v.array(ErrorReportSchema),
  v.minLength(1, 'the array is empty'),
  v.maxLength(50, 'an array holds at most 50 reports'),
);

/**
 * Validates what the error endpoints accept: one report, or an array of 1 to 50. The shape is
 * chosen first, so a bad field in an array is named by its index.
 *
 * @example
 * const result = parseErrorReports(JSON.parse(body));
 * if (result.success) store.insertErrorReports(siteKey, result.output, context);
 */
export const parseErrorReports = (body: unknown) => {
  const items: unknown[] = Array.isArray(body) ? body : [body];
  const parsed = Array.isArray(body) ? v.safeParse(ErrorReportArraySchema, body) : v.safeParse(SingleErrorReportSchema, body);
  // Fields named `constructor` or `prototype` go to `extra` too (issue 11, class 4).
  if (parsed.success) parsed.output.forEach((report, index) => withReservedFields(report, items[index]));
  return parsed;
};
