import * as v from 'valibot';
import { MAX_ERROR_REPORTS_PER_REQUEST, type WireErrorReport } from '../../beacon/lib/wire';
import type { ErrorReport } from '../core/records';
import { describeIssues } from './describeIssues';
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
  v.transform((input) => splitExtra<ErrorReport>(input, knownFields)),
);

const SingleErrorReportSchema = v.pipe(ErrorReportSchema, v.transform((report) => [report]));

const ErrorReportArraySchema = v.pipe(
  v.array(ErrorReportSchema),
  v.minLength(1, 'the array is empty'),
  v.maxLength(MAX_ERROR_REPORTS_PER_REQUEST, `an array holds at most ${MAX_ERROR_REPORTS_PER_REQUEST} reports`),
);

/**
 * What the error endpoints accept: one report, or an array of 1 to MAX_ERROR_REPORTS_PER_REQUEST (50), as an array. The shape is
 * chosen first, so a bad field in an array is named by its index. Fields named `constructor` or
 * `prototype` go to `extra` too (issue 11, class 4).
 *
 * @example
 * v.parse(ErrorReportsSchema, { error_type: 'javascript_error', error_message: 'x is not defined' }) // [ {...} ]
 */
export const ErrorReportsSchema = v.pipe(
  v.unknown(),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const parsed = Array.isArray(dataset.value)
      ? v.safeParse(ErrorReportArraySchema, dataset.value)
      : v.safeParse(SingleErrorReportSchema, dataset.value);
    if (parsed.success) {
      const items: unknown[] = Array.isArray(dataset.value) ? dataset.value : [dataset.value];
      return parsed.output.map((report, index) => withReservedFields(report, items[index]));
    }
    for (const issue of parsed.issues) addIssue({ message: describeIssues([issue]) });
    return NEVER;
  }),
);

/** Compile-time: every report the beacon can send (the wire format) is one this schema accepts. */
export type WireErrorReportFits = WireErrorReport extends v.InferInput<typeof ErrorReportSchema> ? true : never;
const wireFits: WireErrorReportFits = true;
void wireFits;
