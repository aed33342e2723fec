import * as v from 'valibot';
import type { PerformanceSessionInput } from '../store/store';
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

/**
 * A performance session (design, "Performance session"): created by the first POST or PUT of a
 * `session_id`, updated by the later ones.
 */
export const PerformanceSessionSchema = v.pipe(
  v.looseObject(sessionFields),
  v.transform((input) => {
    const session = splitExtra<PerformanceSessionInput>(input, sessionFields);
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
 * Validates a performance session. Fields named `constructor` or `prototype` go to `extra`; a
 * metric named so, or `__proto__`, is refused with a clear message (metric names are names, and the
 * schema would otherwise drop it without a word; issue 11, class 4).
 *
 * @example
 * const parsed = parsePerformanceSession(JSON.parse(body));
 * if (!parsed.success) throw apiError(400, 'invalid_report', describeIssues(parsed.issues));
 */
export const parsePerformanceSession = (body: unknown) => {
  const metrics = body && typeof body == 'object' && Object.hasOwn(body, 'metrics') ? (body as { metrics: unknown }).metrics : undefined;
  const reserved = reservedKeyOf(metrics);
  const parsed = v.safeParse(
    reserved === undefined ? PerformanceSessionSchema : v.pipe(PerformanceSessionSchema, v.check(() => false, `metrics: "${reserved}" is not a metric name`)),
    body,
  );
  if (parsed.success) withReservedFields(parsed.output, body);
  return parsed;
};
