import * as v from 'valibot';
import { MAX_ERROR_CAUSES } from '../../../beacon/lib/wire';
import { ErrorCauseSchema } from '../errorReport';
import { CountSchema, IsoTimeSchema } from './isoTime';

// The issues API's answers (docs/issues.md, "The API").

const nullableText = v.nullable(v.string());
const status = v.picklist(['unresolved', 'resolved', 'ignored']);
const device = v.nullable(v.picklist(['mobile', 'tablet', 'desktop']));

/** An issue's occurrences per bucket of its range (core/trendBuckets.ts). */
export const IssueTrendSchema = v.object({
  interval: v.pipe(v.picklist(['hour', 'day']), v.description('Hourly buckets for a range of 48 hours or less, daily beyond, on whole UTC hours or days')),
  buckets: v.array(
    v.object({
      start: IsoTimeSchema,
      count: v.pipe(CountSchema, v.description('Occurrences in the bucket')),
      incomplete: v.pipe(v.boolean(), v.description('The range ends inside this bucket (the last): it is still filling')),
    }),
  ),
});

/** One issue of `GET /api/v1/sites/{site_key}/issues`: its lifecycle, all-time seen times and the range's counts. */
export const IssueListItemSchema = v.object({
  fingerprint: v.string(),
  title: v.pipe(v.string(), v.description('A failed resource by its URL, else the error\'s name and message (docs/issues.md, "Titles")')),
  explanation: v.pipe(nullableText, v.description('What to do where the title alone does not say ("Script error.": crossorigin and Access-Control-Allow-Origin), or null')),
  type: v.pipe(v.string(), v.description('The error_type of its reports')),
  status,
  regressed: v.pipe(v.boolean(), v.description('A resolved issue occurred again; cleared by the next change of status')),
  first_seen: v.pipe(IsoTimeSchema, v.description('All-time, whatever the range')),
  last_seen: v.pipe(IsoTimeSchema, v.description('All-time, whatever the range')),
  first_release: nullableText,
  last_release: nullableText,
  occurrences: v.pipe(CountSchema, v.description("The range's reports' folded counts added up")),
  visitors: v.pipe(CountSchema, v.description('Distinct (UTC day, visitor) pairs in the range (docs/visitors.md)')),
  page_views_share: v.pipe(
    v.number(),
    v.minValue(0),
    v.maxValue(1),
    v.description("The share of the range's page views (performance sessions) on which it occurred; 0 without page views"),
  ),
  trend: IssueTrendSchema,
  csp_violation: v.pipe(
    v.nullable(v.object({ directive: v.string(), blocked_url: v.string(), received_at: IsoTimeSchema })),
    v.description(
      'A resource error\'s failed load that a CSP violation explains (docs/issues.md, "A resource a CSP blocked"): the violation\'s effective directive, blocked URL and time; else null',
    ),
  ),
});

/** Reports of known bots a read left out (docs/issues.md, "Bots"). */
const botReports = v.pipe(
  CountSchema,
  v.description("Reports of known bots in the range that the read's filters match and left out, not counted (0 with bots=include)"),
);

/** `GET /api/v1/sites/{site_key}/issues`. */
export const IssueListSchema = v.object({
  since: IsoTimeSchema,
  until: IsoTimeSchema,
  items: v.array(IssueListItemSchema),
  next_cursor: v.pipe(nullableText, v.description('The cursor of the next page, null on the last')),
  bot_reports: botReports,
});

/** `GET` and `PATCH /api/v1/sites/{site_key}/issues/{fingerprint}`: the list's item and what the owner set. */
export const IssueSchema = v.object({
  ...IssueListItemSchema.entries,
  since: IsoTimeSchema,
  until: IsoTimeSchema,
  resolved_in: v.pipe(nullableText, v.description('Resolved in this release: only occurrences from releases that first arrived later regress it')),
  ignore_until_count: v.pipe(v.nullable(CountSchema), v.description('Ignored until this many more occurrences, or null')),
  ignore_until: v.pipe(v.nullable(IsoTimeSchema), v.description('Ignored until this time, or null')),
  bot_reports: botReports,
});

const line = v.pipe(v.number(), v.integer(), v.minValue(1));

/** One stack frame, as the engine wrote it and as its source map says (docs/source-maps.md, "Frames"). */
export const IssueFrameSchema = v.object({
  raw: v.pipe(v.string(), v.description("The stack's line")),
  file: nullableText,
  line: v.nullable(v.number()),
  column: v.nullable(v.number()),
  function: nullableText,
  original: v.pipe(
    v.nullable(
      v.object({
        file: v.pipe(v.string(), v.description("The map's source, leading ./ and ../ removed")),
        line,
        column: line,
        function: v.pipe(nullableText, v.description("The name the caller's call site maps to")),
        context: v.nullable(v.object({ pre: v.array(v.string()), line: v.string(), post: v.array(v.string()) })),
      }),
    ),
    v.description('Where the frame is in the code as written, from the release\'s source map; null when `unmapped` says why'),
  ),
  unmapped: v.pipe(
    v.nullable(v.picklist(['no_release', 'no_map', 'outside_map', 'map_invalid'])),
    v.description('Why the frame has no original position (docs/source-maps.md, "Why a frame is not mapped")'),
  ),
  in_app: v.pipe(v.boolean(), v.description("Whether the frame is the site's own code")),
});

/** One report of an issue, as `GET .../issues/{fingerprint}/events` lists it. */
export const IssueEventSchema = v.object({
  id: v.pipe(v.number(), v.integer()),
  received_at: IsoTimeSchema,
  page_url: nullableText,
  browser: nullableText,
  os: nullableText,
  device,
  release: nullableText,
  environment: nullableText,
  message: v.string(),
  stack: nullableText,
  count: v.pipe(CountSchema, v.description('Occurrences the report stands for (1 unless the beacon folded repeats)')),
  causes: v.pipe(
    v.array(ErrorCauseSchema),
    v.maxLength(MAX_ERROR_CAUSES),
    v.description("The error's cause chain, outermost first, or an AggregateError's inner errors (docs/wire-format.md, \"Error reports\"); [] when none"),
  ),
  frames: v.pipe(
    v.array(IssueFrameSchema),
    v.description("The stack's frames, innermost call first, each mapped to the code as written by the report's release's source maps"),
  ),
});

/** `GET /api/v1/sites/{site_key}/issues/{fingerprint}/events`: newest first. */
export const IssueEventsSchema = v.object({ items: v.array(IssueEventSchema), next_cursor: nullableText });

const tagValues = v.array(v.object({ value: v.pipe(v.string(), v.description("'' where the reports had none")), count: v.pipe(CountSchema, v.description('Reports')) }));

/** `GET /api/v1/sites/{site_key}/issues/{fingerprint}/tags`: the issue's reports counted by field, most first. */
export const IssueTagsSchema = v.object({ browser: tagValues, os: tagValues, device: tagValues, page: tagValues, release: tagValues });
