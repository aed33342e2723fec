import { apiPath } from '../collector/routes/apiPath';
import { rangeOf, sinceOf, type Range } from './format';

/** The issues list's tabs (docs/issues.md, "Statuses"), the first the default. */
export const STATUSES = ['unresolved', 'resolved', 'ignored', 'all'] as const;
export type IssueStatusTab = (typeof STATUSES)[number];

/** The list's sortable columns, the first the default; the collector sorts each most first. */
export const SORTS = ['last_seen', 'first_seen', 'occurrences', 'visitors'] as const;
export type IssueSort = (typeof SORTS)[number];

/** The report filters a list, an issue and its tags take, as the URL names them (the API's names). */
export const FILTERS = ['page', 'browser', 'os', 'device', 'release', 'environment'] as const;
export type IssueFilter = (typeof FILTERS)[number];

/** The device filter's values (collector/core/clientOf.ts). */
export const DEVICES = ['mobile', 'tablet', 'desktop'] as const;

/**
 * What the site page's issues list and an issue page show, all of it in the page's URL query
 * (docs/dashboard.md, "Issues"): a link, a reload and the back button give the same view.
 * `back` holds the cursors of the pages before the current one, so "Previous" is a link too.
 */
export interface IssueView {
  range: Range;
  status: IssueStatusTab;
  sort: IssueSort;
  q: string | undefined;
  filters: Partial<Record<IssueFilter, string>>;
  /** `bots=include`: known bots' reports counted too (docs/issues.md, "Bots"). */
  includeBots: boolean;
  cursor: string | undefined;
  back: string[];
}

/** A cursor as the collector writes them (base64url); anything else in a URL is dropped, not sent. */
const CURSOR = /^[\w-]{1,512}$/;

const pick = <T extends string>(value: string | null, options: readonly T[]): T | undefined => options.find((option) => option == value);

/**
 * The issues view a page's `?query` asks for; missing, empty or unknown values are the defaults.
 *
 * @example
 * issueViewOf('?range=24h&status=resolved&os=Android').filters // { os: 'Android' }
 */
export const issueViewOf = (search: string): IssueView => {
  const params = new URLSearchParams(search);
  const filters: IssueView['filters'] = {};
  for (const name of FILTERS) {
    const value = params.get(name)?.trim();
    if (value && (name != 'device' || pick(value, DEVICES))) filters[name] = value;
  }
  const cursor = params.get('cursor') ?? '';
  return {
    range: rangeOf(search),
    status: pick(params.get('status'), STATUSES) ?? 'unresolved',
    sort: pick(params.get('sort'), SORTS) ?? 'last_seen',
    q: params.get('q')?.trim() || undefined,
    filters,
    includeBots: params.get('bots') == 'include',
    cursor: CURSOR.test(cursor) ? cursor : undefined,
    back: CURSOR.test(cursor) ? (params.get('back') ?? '').split('.').filter((each) => CURSOR.test(each)) : [],
  };
};

/**
 * The `?query` of a view, defaults left out (the range always written, as the range links do).
 *
 * @example
 * searchOf({ ...issueViewOf(''), q: 'checkout' }) // '?range=7d&q=checkout'
 */
export const searchOf = (view: IssueView) => {
  const params = new URLSearchParams({ range: view.range });
  if (view.status != 'unresolved') params.set('status', view.status);
  if (view.sort != 'last_seen') params.set('sort', view.sort);
  if (view.q) params.set('q', view.q);
  for (const name of FILTERS) if (view.filters[name]) params.set(name, view.filters[name]);
  if (view.includeBots) params.set('bots', 'include');
  if (view.cursor) {
    params.set('cursor', view.cursor);
    if (view.back.length) params.set('back', view.back.join('.'));
  }
  return `?${params}`;
};

/**
 * The view with `change` applied, back on its first page: a new tab, sort, search or filter
 * starts the list over.
 *
 * @example
 * searchOf(changed(view, { status: 'resolved' }))
 */
export const changed = (view: IssueView, change: Partial<IssueView>): IssueView => ({ ...view, cursor: undefined, back: [], ...change });

/** The next page's view, its cursor from the list's `next_cursor`. */
export const nextPage = (view: IssueView, cursor: string): IssueView => ({ ...view, cursor, back: view.cursor ? [...view.back, view.cursor] : [] });

/** The previous page's view, or undefined on the first page. */
export const previousPage = (view: IssueView): IssueView | undefined =>
  view.cursor ? { ...view, cursor: view.back.at(-1), back: view.back.slice(0, -1) } : undefined;

/** The list's page number, from 1. */
export const pageNumber = (view: IssueView) => (view.cursor ? view.back.length + 2 : 1);

/** The report filters of a view as the API's query (the device filter typed as its schema's). */
const filterQuery = (view: IssueView) => ({ ...view.filters, bots: view.includeBots ? ('include' as const) : undefined, since: sinceOf(view.range) });

/**
 * The read-API path of the issues list a view shows (`GET .../issues`, docs/issues.md).
 *
 * @example
 * issuesPath('3f2a', issueViewOf('?os=Android')) // '/api/v1/sites/3f2a/issues?os=Android&since=…'
 */
export const issuesPath = (siteKey: string, view: IssueView) =>
  apiPath('/api/v1/sites/:site_key/issues', { site_key: siteKey }, { ...filterQuery(view), status: view.status, q: view.q, sort: view.sort, cursor: view.cursor });

/** Events per page of an issue's page (components/IssueEvents.tsx): a screen of rows, each with its stack folded. */
export const EVENTS_PER_PAGE = 10;

/**
 * The read-API path of a page of an issue's events, newest first: the first without `cursor`.
 *
 * @example
 * issueEventsPath('3f2a', '9b1c') // '/api/v1/sites/3f2a/issues/9b1c/events?limit=10'
 */
export const issueEventsPath = (siteKey: string, fingerprint: string, cursor?: string) =>
  apiPath('/api/v1/sites/:site_key/issues/:fingerprint/events', { site_key: siteKey, fingerprint }, { limit: EVENTS_PER_PAGE, cursor });

/**
 * The read-API paths of one issue's page over a view's range and filters: the issue, its tags and
 * its events' first page, which the boot script starts before the app has loaded (boot.ts).
 */
export const issuePaths = (siteKey: string, fingerprint: string, view: IssueView) => {
  const params = { site_key: siteKey, fingerprint };
  return {
    issue: apiPath('/api/v1/sites/:site_key/issues/:fingerprint', params, filterQuery(view)),
    tags: apiPath('/api/v1/sites/:site_key/issues/:fingerprint/tags', params, filterQuery(view)),
    events: issueEventsPath(siteKey, fingerprint),
  };
};
