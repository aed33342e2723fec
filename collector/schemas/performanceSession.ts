import * as v from 'valibot';
import type { WirePerformanceSession } from '../../beacon/lib/wire';
import type { PerformanceSession } from '../core/records';
import { reportUrl } from '../core/reportUrl';
import { describeIssues } from './describeIssues';
import { optionalBounded, optionalFinite, optionalReleaseName, reservedKeyOf, splitExtra, withReservedFields } from './fields';

/** A field web-vitals may leave out, or that a sender writes as `null`: both mean absent (docs/wire-format.md, "Performance sessions"). */
const absentOr = <T extends v.GenericSchema>(schema: T) => v.nullish(schema);
const text = (max: number) => absentOr(v.pipe(v.string(), v.transform((value: string) => value.slice(0, max))));
const finite = () => absentOr(v.pipe(v.number(), v.finite()));

/**
 * The `attribution` fields kept (the beacon's `sitebeacon/attribution` sends the first four, web-vitals
 * 4 and later's names; `element` and `eventTarget` are web-vitals 3's for LCP's and INP's target):
 * short strings, bounded. The rest of web-vitals' attribution (entries, timings, long animation
 * frames) can be large and is not stored.
 */
const ATTRIBUTION_FIELDS = {
  target: text(1000),
  url: text(2048),
  interactionTarget: text(1000),
  largestShiftTarget: text(1000),
  element: text(1000),
  eventTarget: text(1000),
};
const AttributionSchema = absentOr(v.looseObject(ATTRIBUTION_FIELDS));

/**
 * web-vitals' own metric fields (https://github.com/GoogleChrome/web-vitals#metric, v5/v6:
 * `value`, `rating`, `delta`, `id`, `navigationType`, `navigationId`, `navigationInteractionId`,
 * `navigationStartTime`, `navigationURL`), and the bounded `attribution` above. `name` is the key
 * and `entries` is not sent. Other fields are not kept: a metric is web-vitals', not free text.
 */
const METRIC_FIELDS = {
  value: v.pipe(v.number(), v.finite(), v.minValue(0)),
  rating: absentOr(v.picklist(['good', 'needs-improvement', 'poor'])),
  id: text(128),
  delta: finite(),
  navigationType: text(32),
  navigationId: absentOr(v.union([v.pipe(v.number(), v.finite()), v.pipe(v.string(), v.maxLength(128))])),
  navigationInteractionId: finite(),
  navigationStartTime: finite(),
  navigationURL: text(2048),
  attribution: AttributionSchema,
};
const MetricSchema = v.looseObject(METRIC_FIELDS);

/** Only the given, known fields of an object, in their order; URLs without fragment or credentials. */
const knownFields = (input: Record<string, unknown>, known: Record<string, unknown>) =>
  Object.fromEntries(
    Object.keys(known)
      .filter((name) => input[name] !== undefined && input[name] !== null)
      .map((name) => [name, name == 'url' || name == 'navigationURL' ? reportUrl(input[name] as string) : input[name]]),
  );

const sessionFields = {
  session_id: v.pipe(v.string(), v.minLength(1, 'session_id must not be empty'), v.maxLength(128)),
  page_url: optionalBounded(2048),
  navigation_type: optionalBounded(32),
  started_at: optionalFinite(),
  metrics: v.pipe(
    v.record(v.pipe(v.string(), v.regex(/^[A-Za-z]{2,16}$/, 'metric names are letters, like LCP or INP')), MetricSchema),
    v.check((metrics) => Object.keys(metrics).length <= 16, 'at most 16 metrics'),
  ),
  release: optionalReleaseName('release'),
  environment: optionalReleaseName('environment'),
};

/** The session object's shape; documented in OpenAPI as it is. */
export const PerformanceSessionObjectSchema = v.pipe(
  v.looseObject(sessionFields),
  v.transform((input) => {
    const session = splitExtra<PerformanceSession>(input, sessionFields);
    // Keep web-vitals' own fields (METRIC_FIELDS), and of the attribution its short, bounded ones.
    // The beacon strips fragments from the URLs it sends; older beacons did not (Firefox's
    // navigationURL carried `#top`, collector/fixtures/README.md), so they are stripped here too.
    for (const [name, metric] of Object.entries(session.metrics)) {
      const kept = knownFields(metric as unknown as Record<string, unknown>, METRIC_FIELDS);
      const attribution = metric.attribution ? knownFields(metric.attribution, ATTRIBUTION_FIELDS) : {};
      if (Object.keys(attribution).length) kept.attribution = attribution;
      else delete kept.attribution;
      session.metrics[name] = kept as unknown as typeof metric;
    }
    return session;
  }),
);

/**
 * A performance session (docs/wire-format.md, "Performance sessions"): created by the first POST or PUT of a
 * `session_id`, updated by the later ones. Fields named `constructor` or `prototype` go to `extra`;
 * a metric named so, or `__proto__`, is refused with a clear message (metric names are names, and
 * the record schema would otherwise drop it without a word; docs/hostile-input.md, "Names from Object.prototype").
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
