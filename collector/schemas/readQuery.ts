import * as v from 'valibot';
import { decodeCursor } from '../core/cursor';
import { NO_CONTROL_CHARACTERS } from './fields';

const isoDate = v.pipe(
  v.string(),
  v.check((text) => !Number.isNaN(Date.parse(text)), 'since must be an ISO date, like 2026-11-01T00:00:00Z'),
  v.transform((text) => Date.parse(text)),
);
const positiveInteger = (max: number) =>
  v.pipe(v.string(), v.regex(/^\d{1,12}$/, 'must be a whole number'), v.transform(Number), v.minValue(1), v.maxValue(max));

/** Records per page of the read API's lists: 100 unless `limit` says, at most 1000. */
export const MAX_PAGE = 1000;

/** `?since=ISO&cursor=…&limit=N` of the read API's lists. `since` becomes milliseconds. */
export const ListQuerySchema = v.object({
  since: v.optional(isoDate),
  cursor: v.optional(v.pipe(v.string(), v.check((cursor) => decodeCursor(cursor) !== undefined, 'cursor must be the next_cursor of a previous page'))),
  limit: v.optional(positiveInteger(MAX_PAGE), '100'),
});

/** `?since=ISO&limit=N` of the summary. */
export const SummaryQuerySchema = v.object({ since: v.optional(isoDate), limit: v.optional(positiveInteger(MAX_PAGE), '50') });

/**
 * `?since=ISO&p75=false&bots=include` of the daily series (default: the last 30 days, with the p75
 * per metric, known bots' errors left out as the issues list leaves them: docs/issues.md, "Bots").
 */
export const DailyQuerySchema = v.object({
  since: v.optional(isoDate),
  p75: v.optional(v.pipe(v.picklist(['true', 'false'], 'p75 must be true or false'), v.transform((text) => text == 'true')), 'true'),
  bots: v.optional(v.picklist(['exclude', 'include'], 'bots must be exclude or include'), 'exclude'),
});

/** `?since=ISO` of a view of one range. */
export const RangeQuerySchema = v.object({ since: v.optional(isoDate) });

/** `?since=ISO&limit=N` of the dashboard's tables: 20 rows unless `limit` says, at most 100. */
export const TableQuerySchema = v.object({ since: v.optional(isoDate), limit: v.optional(positiveInteger(100), '20') });

/** The longest route asked for: a route is at most a page URL's 2,048 characters, plus `/*` (core/routes.ts). */
const MAX_ROUTE = 4096;

/** `device=`: one kind of device's sessions alone (docs/vitals.md, "By device"). */
const device = v.picklist(['mobile', 'tablet', 'desktop'], 'device must be one of mobile, tablet, desktop');

/** `route=`: one route's sessions alone (docs/vitals.md, "Routes"): a route as `/pages` lists it, or a page URL. */
const route = v.pipe(
  v.string('route must be given once'),
  v.maxLength(MAX_ROUTE, `route must be at most ${MAX_ROUTE} characters`),
  v.regex(NO_CONTROL_CHARACTERS, 'route must not hold control characters'),
);

/** `?since=ISO&device=D&route=R` of the Web Vitals view. */
export const VitalsQuerySchema = v.object({ ...RangeQuerySchema.entries, device: v.optional(device), route: v.optional(route) });

/** `?since=ISO&limit=N&device=D` of the per-page vitals. */
export const PagesQuerySchema = v.object({ ...TableQuerySchema.entries, device: v.optional(device) });
