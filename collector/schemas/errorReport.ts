import * as v from 'valibot';
import type { NewErrorReport } from '../store/store';

/** Bounds of stored strings; longer values are cut, not refused, so no report is lost to length. */
const bounded = (max: number) => v.pipe(v.string(), v.transform((text) => text.slice(0, max)));
const optionalBounded = (max: number) => v.optional(bounded(max));
const optionalCount = (min: number, max: number) =>
  v.optional(v.pipe(v.number(), v.integer(), v.minValue(min), v.maxValue(max)));

/** Fields beyond the known ones are kept, but a report may not smuggle in a large document. */
const MAX_EXTRA_JSON = 4096;

const knownFields = {
  error_type: v.pipe(v.string(), v.minLength(1, 'error_type must not be empty'), v.maxLength(64)),
  error_message: bounded(2000),
  error_name: optionalBounded(200),
  stack: optionalBounded(16_000),
  source_url: optionalBounded(2048),
  line: optionalCount(0, 2 ** 31),
  column: optionalCount(0, 2 ** 31),
  page_url: optionalBounded(2048),
  timestamp: v.optional(v.pipe(v.number(), v.finite())),
  session_id: optionalBounded(128),
  count: optionalCount(1, 1_000_000),
};

const LooseErrorReportSchema = v.looseObject(knownFields);

const splitExtra = (input: v.InferOutput<typeof LooseErrorReportSchema>): NewErrorReport => {
  const report: Record<string, unknown> = {};
  const extra: Record<string, unknown> = {};
  // valibot's looseObject already drops "__proto__", "prototype" and "constructor" keys.
  for (const [name, value] of Object.entries(input)) (name in knownFields ? report : extra)[name] = value;
  const json = JSON.stringify(extra);
  if (json.length > 2 && json.length <= MAX_EXTRA_JSON) report.extra = extra;
  return report as unknown as NewErrorReport;
};

/**
 * One error report (spec section 2: `error_type` and `error_message` are required; the design
 * adds the optional fields). Unknown fields are kept in `extra`.
 */
export const ErrorReportSchema = v.pipe(LooseErrorReportSchema, v.transform(splitExtra));

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
export const parseErrorReports = (body: unknown) =>
  Array.isArray(body)
    ? v.safeParse(ErrorReportArraySchema, body)
    : v.safeParse(SingleErrorReportSchema, body);
