import * as v from 'valibot';
import { decodeKeyCursor } from '../core/cursor';
import { NO_CONTROL_CHARACTERS } from './fields';

// The issues API's query strings and change body (docs/issues.md, "The API"). Every value is
// bounded and refused with a 400 naming it when out of bounds, never cut: a filter cut short would
// silently answer another question (docs/hostile-input.md, "Bounded reads").

/** Text of at most `max` characters on one line. */
const text = (name: string, max: number) =>
  v.pipe(
    v.string(`${name} must be given once`),
    v.minLength(1, `${name} must not be empty`),
    v.maxLength(max, `${name} must be at most ${max} characters`),
    v.regex(NO_CONTROL_CHARACTERS, `${name} must not hold control characters`),
  );
const isoTime = (name: string) =>
  v.pipe(
    v.string(`${name} must be given once`),
    v.maxLength(40, `${name} must be an ISO time, like 2026-11-01T00:00:00Z`),
    v.check((value) => !Number.isNaN(Date.parse(value)), `${name} must be an ISO time, like 2026-11-01T00:00:00Z`),
    v.transform((value) => Date.parse(value)),
    v.description('An ISO 8601 time'),
  );
const choice = <const T extends readonly [string, ...string[]]>(name: string, options: T) =>
  v.picklist(options, `${name} must be one of ${options.join(', ')}`);
const device = choice('device', ['mobile', 'tablet', 'desktop']);

/** Issues per page: 25 unless `limit` says, at most 100. */
export const MAX_ISSUES_PAGE = 100;

/** The longest release or environment the beacon sends (docs/wire-format.md). */
const MAX_RELEASE = 200;

/** A store's `next_cursor` (core/cursor.ts `encodeKeyCursor`): anything else is refused, not read as the first page. */
const cursor = v.pipe(
  v.string('cursor must be given once'),
  v.regex(/^[\w-]{1,512}$/, 'cursor must be the next_cursor of a previous page'),
  v.check((value) => decodeKeyCursor(value) !== undefined, 'cursor must be the next_cursor of a previous page'),
);

const limit = (max: number, fallback: string) =>
  v.optional(
    v.pipe(
      v.string('limit must be given once'),
      v.regex(/^\d{1,6}$/, 'limit must be a whole number'),
      v.transform(Number),
      v.minValue(1, 'limit must be at least 1'),
      v.maxValue(max, `limit must be at most ${max}`),
    ),
    fallback,
  );

/** The range and report filters an issue's counts take: `since`, `until`, `page`, `browser`, `os`, `device`, `release`, `environment`, `bots`. */
const filters = {
  since: v.optional(isoTime('since')),
  until: v.optional(isoTime('until')),
  page: v.optional(text('page', 2048)),
  browser: v.optional(text('browser', 100)),
  os: v.optional(text('os', 100)),
  device: v.optional(device),
  release: v.optional(text('release', MAX_RELEASE)),
  environment: v.optional(text('environment', MAX_RELEASE)),
  bots: v.optional(choice('bots', ['exclude', 'include']), 'exclude'),
};

/** `GET /api/v1/sites/{site_key}/issues`. */
export const IssueListQuerySchema = v.object({
  status: v.optional(choice('status', ['unresolved', 'resolved', 'ignored', 'all']), 'unresolved'),
  q: v.optional(text('q', 200)),
  type: v.optional(text('type', 100)),
  ...filters,
  sort: v.optional(choice('sort', ['last_seen', 'first_seen', 'occurrences', 'visitors']), 'last_seen'),
  limit: limit(MAX_ISSUES_PAGE, '25'),
  cursor: v.optional(cursor),
});

/** `GET /api/v1/sites/{site_key}/issues/{fingerprint}`: the range and filters its counts take. */
export const IssueQuerySchema = v.object(filters);

/** `GET /api/v1/sites/{site_key}/issues/{fingerprint}/tags`: the range and filters, and the `limit` most frequent values of each field (10 unless asked). */
export const IssueTagsQuerySchema = v.object({ ...filters, limit: limit(MAX_ISSUES_PAGE, '10') });

/** `GET /api/v1/sites/{site_key}/issues/{fingerprint}/events`: newest first, `limit` per page. */
export const IssueEventsQuerySchema = v.object({ limit: limit(MAX_ISSUES_PAGE, '25'), cursor: v.optional(cursor) });

/**
 * `PATCH /api/v1/sites/{site_key}/issues/{fingerprint}`: the new status and only the fields it
 * uses; unknown fields are refused (a misspelt `ignore_until` would otherwise ignore forever).
 */
export const IssueChangeSchema = v.pipe(
  v.strictObject(
    {
      status: choice('status', ['unresolved', 'resolved', 'ignored']),
      resolved_in: v.optional(v.nullable(text('resolved_in', MAX_RELEASE))),
      ignore_until_count: v.optional(
        v.nullable(v.pipe(v.number('ignore_until_count must be a number'), v.integer('ignore_until_count must be whole'), v.minValue(1), v.maxValue(1_000_000_000))),
      ),
      ignore_until: v.optional(v.nullable(isoTime('ignore_until'))),
    },
    'send { status, resolved_in?, ignore_until_count?, ignore_until? } and nothing else',
  ),
  v.check((change) => change.status == 'resolved' || change.resolved_in == null, 'resolved_in goes with status resolved only'),
  v.check(
    (change) => change.status == 'ignored' || (change.ignore_until_count == null && change.ignore_until == null),
    'ignore_until_count and ignore_until go with status ignored only',
  ),
);
