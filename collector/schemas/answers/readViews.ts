import * as v from 'valibot';
import { StoredErrorReportSchema } from './storedRecords';
import { CountSchema, DaySchema, IsoTimeSchema } from './isoTime';

/** Where a view's range starts, as ISO time (reads/range.ts). */
const since = IsoTimeSchema;
const share = v.pipe(v.number(), v.minValue(0), v.maxValue(1));
const rating = v.picklist(['good', 'needs-improvement', 'poor']);
/** The kind of device a view's sessions were of, as asked (`device=`); null: every session. */
const device = v.nullable(v.picklist(['mobile', 'tablet', 'desktop']));

/** A site, as the read API lists it (core/records.ts `Site`). */
export const SiteSchema = v.object({ site_key: v.string(), name: v.string(), allowed_origins: v.array(v.string()), created_at: IsoTimeSchema });

/** `GET /api/v1/sites`: the sites the caller may see. */
export const SiteListSchema = v.object({ data: v.array(SiteSchema) });

/** One UTC day of a site's activity (core/dailySeries.ts). */
export const DailyPointSchema = v.object({
  day: DaySchema,
  errors: CountSchema,
  error_occurrences: CountSchema,
  csp: CountSchema,
  page_views: CountSchema,
  p75: v.record(v.string(), v.nullable(v.number())),
});

/** One UTC hour of a site's activity (core/activitySeries.ts). */
export const HourPointSchema = v.object({
  hour: IsoTimeSchema,
  errors: CountSchema,
  error_occurrences: CountSchema,
  csp: CountSchema,
  page_views: CountSchema,
  incomplete: v.pipe(v.boolean(), v.description('The range ends inside this hour (the last): it is still filling')),
});

const totals = { errors: CountSchema, error_occurrences: CountSchema, csp: CountSchema, page_views: CountSchema };

/** `GET /api/v1/sites/{site_key}/daily`. */
export const DailyViewSchema = v.object({
  site_key: v.string(),
  since,
  until: v.pipe(IsoTimeSchema, v.description('The range ends at the time of the read')),
  days: v.array(DailyPointSchema),
  hours: v.pipe(
    v.nullable(v.array(HourPointSchema)),
    v.description('Per UTC hour when the range is 48 hours or less (as issue trends), the first from `since`; null beyond'),
  ),
  totals: v.pipe(v.object(totals), v.description("The range's errors (their reports), occurrences, CSP violations and page views")),
  previous: v.pipe(
    v.object({ since: IsoTimeSchema, until: IsoTimeSchema, ...totals }),
    v.description('The same totals over the range of the same length just before this one'),
  ),
});

/** An error group: reports of one fingerprint (core/summary.ts `ErrorGroup`). */
export const ErrorGroupSchema = v.object({
  fingerprint: v.string(),
  error_type: v.string(),
  error_name: v.optional(v.string()),
  error_message: v.string(),
  reports: v.pipe(CountSchema, v.description('Reports stored for the group')),
  count: v.pipe(CountSchema, v.description("Occurrences: the reports' folded counts added up")),
  first_seen: IsoTimeSchema,
  last_seen: IsoTimeSchema,
});

/** An error group with its distinct sessions (one per page view) and its visitors in the range. */
export const ErrorGroupWithSessionsSchema = v.object({
  ...ErrorGroupSchema.entries,
  sessions: v.pipe(CountSchema, v.description('Distinct session_ids: the beacon starts one per page view')),
  visitors: v.pipe(CountSchema, v.description('Distinct (UTC day, visitor) pairs: one client on two days counts twice (docs/visitors.md)')),
});

/** Reports and occurrences of one UTC day. */
const DailyErrorsSchema = v.object({ day: DaySchema, reports: CountSchema, count: CountSchema });

/** An error group with its sessions and its reports and occurrences per UTC day. */
export const ErrorGroupTrendSchema = v.object({ ...ErrorGroupWithSessionsSchema.entries, daily: v.array(DailyErrorsSchema) });

/** `GET /api/v1/sites/{site_key}/error-groups`: each group with its sessions and occurrences per day. */
export const ErrorGroupsViewSchema = v.object({ site_key: v.string(), since, data: v.array(ErrorGroupTrendSchema) });

/** `GET /api/v1/sites/{site_key}/error-groups/{fingerprint}`: one group, its latest report (stack), days, pages, browsers. */
export const ErrorGroupDetailSchema = v.object({
  site_key: v.string(),
  since,
  group: ErrorGroupWithSessionsSchema,
  latest: v.pipe(v.nullable(StoredErrorReportSchema), v.description('The latest report of the group (its stack), or null')),
  daily: v.array(DailyErrorsSchema),
  pages: v.array(v.object({ page_url: v.string(), reports: CountSchema })),
  browsers: v.pipe(
    v.array(v.object({ browser: v.string(), reports: CountSchema })),
    v.description('Reports per browser and major version, OS and device ("Chrome 131 · Android · mobile"), a known bot as "Googlebot 2 · bot", most first'),
  ),
});

/** CSP violations of one effective directive, blocked host and disposition (docs/csp-reports.md, "Blocked first"). */
export const CspGroupSchema = v.object({
  directive: v.string(),
  blocked_host: v.string(),
  disposition: v.pipe(
    v.picklist(['enforce', 'report']),
    v.description('enforce: an enforced policy blocked it; report: a report-only policy would have (or the report did not say)'),
  ),
  reports: CountSchema,
});

/** `GET /api/v1/sites/{site_key}/csp-groups`. */
export const CspGroupsViewSchema = v.object({ site_key: v.string(), since, data: v.array(CspGroupSchema) });

/** Per metric: sessions with it, their p75, and the shares rated good / needs improvement / poor. */
export const MetricSummarySchema = v.object({ samples: CountSchema, p75: v.nullable(v.number()), good: share, needs_improvement: share, poor: share });

/** One Web Vital of `/vitals`: the summary's figures, the p75's rating and the p75 per UTC day. */
export const VitalSchema = v.object({
  ...MetricSummarySchema.entries,
  rating: v.nullable(rating),
  daily: v.array(v.object({ day: DaySchema, samples: CountSchema, p75: v.nullable(v.number()) })),
});

/** `GET /api/v1/sites/{site_key}/vitals`: per Web Vital, by name (LCP, INP, CLS, FCP, TTFB). */
export const VitalsViewSchema = v.object({ site_key: v.string(), since, device, route: v.nullable(v.string()), vitals: v.record(v.string(), VitalSchema) });

/** One route's sessions and, per metric, its p75 and rating (null without samples). */
export const PageVitalsSchema = v.object({
  route: v.pipe(v.string(), v.description('The sessions\' route (docs/vitals.md, "Routes"); sessions stored before routes count under their page URL')),
  page_url: v.pipe(v.string(), v.description('One page URL of the route (the first in byte order)')),
  sessions: CountSchema,
  metrics: v.record(v.string(), v.nullable(v.object({ samples: CountSchema, p75: v.number(), rating }))),
});

/** `GET /api/v1/sites/{site_key}/pages`. */
export const PagesViewSchema = v.object({ site_key: v.string(), since, device, data: v.array(PageVitalsSchema) });

/** `GET /api/v1/sites/{site_key}/summary`: error groups, CSP groups and per-metric figures. */
export const SummaryViewSchema = v.object({
  site_key: v.string(),
  since: v.pipe(v.nullable(IsoTimeSchema), v.description('null: all time (no `since` asked)')),
  errors: v.array(ErrorGroupSchema),
  csp: v.array(CspGroupSchema),
  vitals: v.record(v.string(), MetricSummarySchema),
});
