import * as v from 'valibot';
import type { WirePerformanceSession } from '../../beacon/lib/wire';
import type { PerformanceSession } from '../core/records';
import { describeIssues } from './describeIssues';
import { optionalBounded, optionalFinite, reservedKeyOf, splitExtra, withReservedFields } from './fields';

/** web-vitals' own metric fields, sent as they are (https://github.com/GoogleChrome/web-vitals#metric). */
const MetricSchema = v.looseObject({
  value: v.pipe(v.number(), v.finite(), v.minValue(0)),
  rating: v.optional(v.picklist(['good', 'needs-improvement', 'poor'])),
  id: optionalBounded(128),
  delta: optionalFinite(),
  navigationType: optionalBounded(32),
});

const sessionFields = {
  session_id: v.pipe(v.string(), v.minLength(1, 'session_id must not be empty'), v.maxLength(128)),
  page_url: optionalBounded(2048),
  navigation_type: optionalBounded(32),
  started_at: optionalFinite(),
  metrics: v.pipe(
    v.record(v.pipe(v.string(), v.regex(/^[A-Za-z]{2,16}$/, 'metric names are letters, like LCP or INP')), MetricSchema),
    v.check((metrics) => Object.keys(metrics).length <= 16, 'at most 16 metrics'),
  ),
};

/** The session object's shape; documented in OpenAPI as it is. */
export const PerformanceSessionObjectSchema = v.pipe(
  v.looseObject(sessionFields),
  v.transform((input) => {
    const session = splitExtra<PerformanceSession>(input, sessionFields);
    // Keep web-vitals' own fields only: the metric's attribution can be large and is not stored.
    for (const [name, metric] of Object.entries(session.metrics)) {
      const { value, rating, id, delta, navigationType } = metric;
      session.metrics[name] = Object.fromEntries(
        Object.entries({ value, rating, id, delta, navigationType }).filter(([, field]) => field !== undefined),
      ) as unknown as typeof metric;
    }
    return session;
  }),
);

/**
 * A performance session (../shared/design.md, "Performance session"): created by the first POST or PUT of a
 * `session_id`, updated by the later ones. Fields named `constructor` or `prototype` go to `extra`;
 * a metric named so, or `__proto__`, is refused with a clear message (metric names are names, and
 * the record schema would otherwise drop it without a word; issue 11, class 4).
 *
 * @example
 * v.parse(PerformanceSessionSchema, { session_id: 's1', metrics: { LCP: { value: 1200 } } })
 */
export const PerformanceSessionSchema = v.pipe(
  v.unknown(),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const body = dataset.value;
    const metrics = body && typeof body == 'object' && Object.hasOwn(body, 'metrics') ? (body as { metrics: unknown }).metrics : undefined;
    const reserved = reservedKeyOf(metrics);
    if (reserved !== undefined) {
      addIssue({ message: `metrics: "${reserved}" is not a metric name` });
      return NEVER;
    }
    const parsed = v.safeParse(PerformanceSessionObjectSchema, body);
    if (parsed.success) return withReservedFields(parsed.output, body);
    addIssue({ message: describeIssues(parsed.issues) });
    return NEVER;
  }),
);

/** Compile-time: every session the beacon can send (the wire format) is one this schema accepts. */
export type WirePerformanceSessionFits = WirePerformanceSession extends v.InferInput<typeof PerformanceSessionObjectSchema> ? true : never;
const wireFits: WirePerformanceSessionFits = true;
void wireFits;
