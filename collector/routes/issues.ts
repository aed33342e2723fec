import { getRouterParam, type H3Event } from 'h3';
import { apiError } from '../http/apiError';
import { defineRoute } from '../http/route';
import type { IssueReads } from '../reads/issueViews';
import { countedIssueState, issueAnswerOf, readIssue } from '../reads/readIssue';
import { readIssueEvents } from '../reads/readIssueEvents';
import { readIssues } from '../reads/readIssues';
import { readIssueTags } from '../reads/readIssueTags';
import { IssueEventsSchema, IssueListSchema, IssueSchema, IssueTagsSchema } from '../schemas/answers/issueAnswers';
import { IssueChangeSchema, IssueEventsQuerySchema, IssueListQuerySchema, IssueQuerySchema, IssueTagsQuerySchema } from '../schemas/issueQuery';
import { MAP_THREAD_UNAVAILABLE, onMapThread } from './sourceMaps';

const TAG = 'Issues';
const PATH = '/api/v1/sites/:site_key/issues';
const UNKNOWN = 'unknown_issue: the site has no report of this fingerprint';

/** The path's fingerprint: 16 hexadecimal characters (core/fingerprint.ts); anything else is no issue. */
const fingerprintOf = (event: H3Event) => {
  const fingerprint = getRouterParam(event, 'fingerprint') ?? '';
  if (!/^[0-9a-f]{16}$/.test(fingerprint)) throw unknownIssue();
  return fingerprint;
};
const unknownIssue = () => apiError(404, 'unknown_issue', 'the site has no issue of this fingerprint');

/** A range that ends before it starts is refused, not answered empty. */
const checkRange = <Q extends { since?: number | undefined; until?: number | undefined }>(query: Q) => {
  if (query.since !== undefined && query.until !== undefined && query.since > query.until) {
    throw apiError(400, 'bad_request', 'since must not be after until');
  }
  return query;
};

/**
 * The issues API (docs/issues.md, "The API"): a site's error groups with their lifecycle, read by
 * API keys of the site and signed-in users alike; the change (PATCH) with a key of the site, or the
 * cookie from this collector's own Origin (http/auth.ts `siteApiKey`: 403 `csrf` otherwise). Each
 * read is a function in reads/.
 */
export const issueRoutes = ({ store }: { store: IssueReads }) => [
  defineRoute({
    method: 'GET',
    path: PATH,
    tag: TAG,
    summary:
      'Issues with a report in the range (default the last 14 days; connectivity checks and bots left out): title, status, all-time first and last seen, occurrences, visitors, share of page views and trend, one page',
    auth: 'siteApiKey',
    heavyRead: true,
    query: IssueListQuerySchema,
    responses: { 200: { description: 'One page of issues', schema: IssueListSchema } },
    handle: ({ site, query }) => readIssues(store, site!, checkRange(query)),
  }),
  defineRoute({
    method: 'GET',
    path: `${PATH}/:fingerprint`,
    tag: TAG,
    summary: 'One issue over the range, with what its owner set (resolved_in, ignore_until_count, ignore_until)',
    auth: 'siteApiKey',
    heavyRead: true,
    query: IssueQuerySchema,
    responses: { 200: { description: 'The issue', schema: IssueSchema }, 404: UNKNOWN },
    async handle({ site, event, query }) {
      const issue = await readIssue(store, site!, { ...checkRange(query), fingerprint: fingerprintOf(event) });
      if (!issue) throw unknownIssue();
      return issue;
    },
  }),
  defineRoute({
    method: 'PATCH',
    path: `${PATH}/:fingerprint`,
    tag: TAG,
    summary: 'Changes the status: resolved (optionally in a release), ignored (optionally until a count or a time), or unresolved',
    auth: 'siteApiKey',
    body: { schema: IssueChangeSchema, invalidCode: 'invalid_request' },
    responses: { 200: { description: 'The issue after the change, over the last 14 days', schema: IssueSchema }, 404: UNKNOWN },
    async handle({ site, event, body }) {
      const fingerprint = fingerprintOf(event);
      if (!(await countedIssueState(store, site!.site_key, fingerprint))) throw unknownIssue();
      const state = await store.issues.update(site!.site_key, fingerprint, body);
      if (!state) throw unknownIssue();
      return issueAnswerOf(store, site!.site_key, state, {}, Date.now());
    },
  }),
  defineRoute({
    method: 'GET',
    path: `${PATH}/:fingerprint/events`,
    tag: TAG,
    summary: "The issue's reports, newest first: page, client, release, environment, message, stack, count and frames mapped by the release's source maps",
    auth: 'siteApiKey',
    heavyRead: true,
    query: IssueEventsQuerySchema,
    responses: { 200: { description: 'One page of events', schema: IssueEventsSchema }, 404: UNKNOWN, 503: MAP_THREAD_UNAVAILABLE },
    async handle({ site, event, query }) {
      // The frames are mapped on the source map thread (reads/eventFrames.ts).
      const events = await onMapThread(() => readIssueEvents(store, site!, { ...query, fingerprint: fingerprintOf(event) }));
      if (!events) throw unknownIssue();
      return events;
    },
  }),
  defineRoute({
    method: 'GET',
    path: `${PATH}/:fingerprint/tags`,
    tag: TAG,
    summary: "The issue's reports in the range counted by browser, OS, device, page and release, most first",
    auth: 'siteApiKey',
    heavyRead: true,
    query: IssueTagsQuerySchema,
    responses: { 200: { description: 'Counts by field', schema: IssueTagsSchema }, 404: UNKNOWN },
    async handle({ site, event, query }) {
      const tags = await readIssueTags(store, site!, { ...checkRange(query), fingerprint: fingerprintOf(event) });
      if (!tags) throw unknownIssue();
      return tags;
    },
  }),
];
