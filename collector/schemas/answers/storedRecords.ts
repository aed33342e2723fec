import * as v from 'valibot';
import { MAX_ERROR_CAUSES } from '../../../beacon/lib/wire';
import { ErrorCauseSchema } from '../errorReport';
import { IsoTimeSchema } from './isoTime';

const text = v.optional(v.string());
const integer = v.optional(v.pipe(v.number(), v.integer()));
const extra = v.optional(v.record(v.string(), v.unknown()));
/** The client as a day's hash, never its address (docs/visitors.md); absent on records stored before visitors were kept. */
const visitor = v.optional(v.pipe(v.string(), v.description("The client as a hash under the day's salt (docs/visitors.md)")));

/**
 * An error report as stored and read back (core/records.ts `StoredErrorReport`): the fields the
 * wire format accepted, the fingerprint, and when and from which user agent it arrived. `causes`:
 * the `cause` chain, outermost first, or an AggregateError's inner errors, as the error-report
 * schema accepts them (docs/wire-format.md, "Error reports"); absent when the report had none.
 */
export const StoredErrorReportSchema = v.object({
  id: v.pipe(v.number(), v.integer()),
  site_key: v.string(),
  error_type: v.string(),
  error_message: v.pipe(v.string(), v.description("As the browser described it, without an engine's prefix for an uncaught value (\"Uncaught \")")),
  error_name: text,
  stack: text,
  source_url: text,
  line: integer,
  column: integer,
  page_url: text,
  timestamp: v.optional(v.number()),
  session_id: text,
  count: integer,
  causes: v.optional(v.pipe(v.array(ErrorCauseSchema), v.maxLength(MAX_ERROR_CAUSES))),
  extra,
  fingerprint: v.string(),
  received_at: IsoTimeSchema,
  user_agent: text,
  visitor: visitor,
});

const cspSource = v.picklist(['beacon', 'report-uri', 'report-to']);

/** A CSP (or other Reporting API) report as stored (core/records.ts `StoredCspReport`). */
export const StoredCspReportSchema = v.object({
  id: v.pipe(v.number(), v.integer()),
  site_key: v.string(),
  report_type: v.string(),
  document_uri: text,
  referrer: text,
  violated_directive: text,
  effective_directive: text,
  original_policy: text,
  disposition: text,
  blocked_uri: text,
  source_file: text,
  line_number: integer,
  column_number: integer,
  status_code: integer,
  script_sample: text,
  age: v.optional(v.number()),
  body: extra,
  extra,
  source: v.optional(cspSource),
  sources: v.optional(v.array(cspSource)),
  blocked_host: v.string(),
  violation_key: text,
  received_at: IsoTimeSchema,
  user_agent: text,
  visitor: visitor,
});

/** A performance session as stored (core/records.ts `StoredPerformanceSession`): each metric its latest value. */
export const StoredPerformanceSessionSchema = v.object({
  id: v.pipe(v.number(), v.integer()),
  site_key: v.string(),
  session_id: v.string(),
  page_url: text,
  navigation_type: text,
  started_at: v.optional(v.number()),
  metrics: v.record(
    v.string(),
    v.object({
      value: v.number(),
      rating: text,
      id: text,
      delta: v.optional(v.number()),
      navigationType: text,
      navigationId: v.optional(v.union([v.number(), v.string()])),
      navigationInteractionId: v.optional(v.number()),
      navigationStartTime: v.optional(v.number()),
      navigationURL: text,
      attribution: v.optional(v.record(v.string(), v.string())),
    }),
  ),
  extra,
  route: v.optional(v.pipe(v.string(), v.description('The page URL\'s route (docs/vitals.md, "Routes"); absent on sessions stored before routes'))),
  received_at: IsoTimeSchema,
  updated_at: IsoTimeSchema,
  user_agent: text,
  visitor: visitor,
});

/**
 * A page of a read API list, oldest first; `next_cursor` is opaque: pass it as `cursor` for the
 * next page (null on the last).
 *
 * @example
 * pageOf(StoredErrorReportSchema)
 */
export const pageOf = <Item extends v.GenericSchema>(item: Item) =>
  v.object({
    data: v.array(item),
    next_cursor: v.pipe(v.nullable(v.string()), v.description('Opaque: pass it as `cursor` for the next page')),
  });
