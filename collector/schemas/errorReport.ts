import * as v from 'valibot';
import { MAX_ERROR_CAUSES, MAX_ERROR_REPORTS_PER_REQUEST, type WireErrorReport } from '../../beacon/lib/wire';
import type { ErrorReport } from '../core/records';
import { describeIssues } from './describeIssues';
import { fastErrorReports } from './errorReportFastPath';
import { bounded, optionalBounded, optionalFinite, optionalInteger, optionalReleaseName, splitExtra, withReservedFields } from './fields';

/**
 * One cause (docs/wire-format.md, "Error reports": the `cause` chain or an AggregateError's inner errors), bounded
 * as the report's own error is. Fields a cause has beyond these are dropped: a newer beacon's
 * addition must not cost the report.
 */
export const ErrorCauseSchema = v.object(
  {
    error_name: optionalBounded(200),
    error_message: bounded(2000),
    stack: optionalBounded(16_000),
    aggregate: v.optional(v.boolean('aggregate must be true or false')),
  },
  'each cause must be an object with an error_message',
);

const CausesSchema = v.pipe(
  v.array(ErrorCauseSchema, 'causes must be an array of causes'),
  v.maxLength(MAX_ERROR_CAUSES, `causes holds at most ${MAX_ERROR_CAUSES} causes`),
);

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
  causes: v.optional(CausesSchema),
  release: optionalReleaseName('release'),
  environment: optionalReleaseName('environment'),
};

/**
 * One error report (spec section 2: `error_type` and `error_message` are required; docs/wire-format.md,
 * "Error reports", adds the optional fields). Unknown fields are kept in `extra`.
 */
export const ErrorReportSchema = v.pipe(
  v.looseObject(knownFields),
  v.transform((input) => splitExtra<ErrorReport>(input, knownFields)),
);

const SingleErrorReportSchema = v.pipe(ErrorReportSchema, v.transform((report) => [report]));

const ErrorReportArraySchema = v.pipe(
  v.array(ErrorReportSchema),
  v.minLength(1, 'the array is empty'),
  v.maxLength(MAX_ERROR_REPORTS_PER_REQUEST, `an array holds at most ${MAX_ERROR_REPORTS_PER_REQUEST} reports`),
);

/** One report or an array of them, judged by valibot (ErrorReportsValibotSchema). */
const judged = ({ dataset, addIssue, NEVER }: v.RawTransformContext<unknown>) => {
  const parsed = Array.isArray(dataset.value)
    ? v.safeParse(ErrorReportArraySchema, dataset.value)
    : v.safeParse(SingleErrorReportSchema, dataset.value);
  if (parsed.success) {
    const items: unknown[] = Array.isArray(dataset.value) ? dataset.value : [dataset.value];
    return parsed.output.map((report, index) => withReservedFields(report, items[index]));
  }
  for (const issue of parsed.issues) addIssue({ message: describeIssues([issue]) });
  return NEVER;
};

/**
 * What the error endpoints accept, judged by valibot: one report, or an array of 1 to
 * MAX_ERROR_REPORTS_PER_REQUEST (50), as an array. The shape is chosen first, so a bad field in an
 * array is named by its index. Fields named `constructor` or `prototype` go to `extra` too
 * (docs/hostile-input.md, "Names from Object.prototype"). The reference ErrorReportsSchema's fast path is checked against.
 */
export const ErrorReportsValibotSchema = v.pipe(v.unknown(), v.rawTransform(judged));

/**
 * What the error endpoints accept (ErrorReportsValibotSchema): the common shape in one pass
 * (errorReportFastPath.ts, docs/performance.md), anything else through valibot, which also says what is wrong.
 *
 * @example
 * v.parse(ErrorReportsSchema, { error_type: 'javascript_error', error_message: 'x is not defined' }) // [ {...} ]
 */
export const ErrorReportsSchema = v.pipe(
  v.unknown(),
  v.rawTransform((context: v.RawTransformContext<unknown>) => fastErrorReports(context.dataset.value) ?? judged(context)),
);

/** Compile-time: every report the beacon can send (the wire format) is one this schema accepts. */
export type WireErrorReportFits = WireErrorReport extends v.InferInput<typeof ErrorReportSchema> ? true : never;
const wireFits: WireErrorReportFits = true;
void wireFits;
