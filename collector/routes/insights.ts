import { getRouterParam } from 'h3';
import { browserCounts } from '../core/browserOf';
import { isConnectivityCheck } from '../core/connectivityCheck';
import { buildDailySeries, fillDays, seriesStart } from '../core/dailySeries';
import { buildPageVitals } from '../core/pageVitals';
import { buildSummary } from '../core/summary';
import { visibleSites } from '../core/users';
import { rateMetric, VITALS_THRESHOLDS } from '../core/vitals';
import { apiError } from '../http/apiError';
import { defineRoute } from '../http/route';
import {
  CspGroupsViewSchema,
  DailyViewSchema,
  ErrorGroupDetailSchema,
  ErrorGroupsViewSchema,
  PagesViewSchema,
  SiteListSchema,
  VitalsViewSchema,
} from '../schemas/answers/readViews';
import { DailyQuerySchema, RangeQuerySchema, TableQuerySchema } from '../schemas/readQuery';
import type { Store } from '../store/contract';

const DAY = 86_400_000;
const TAG = 'Read API';
const iso = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString());

/**
 * The read API's views for the dashboard (design, "Dashboard"), open to API keys and to signed-in
 * users alike (the dashboard reads nothing else): the caller's sites, a site's daily series, its
 * error groups with sessions and trends, one group's detail, CSP violations by group, the Web
 * Vitals with their daily p75, and per-page vitals.
 */
export const insightRoutes = ({ store }: { store: Store }) => [
  defineRoute({
    method: 'GET',
    path: '/api/v1/sites',
    tag: TAG,
    summary: "The sites the caller may see: a site's key sees its site, an installation key or an unrestricted user every site",
    auth: 'reader',
    responses: { 200: { description: 'The sites', schema: SiteListSchema } },
    async handle({ apiKey, user }) {
      const sites = await store.sites.list();
      if (user) return { data: visibleSites(user, sites) };
      return { data: apiKey!.site_key === undefined ? sites : sites.filter((site) => site.site_key == apiKey!.site_key) };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/v1/sites/:site_key/daily',
    tag: TAG,
    summary: 'Per UTC day since `since` (default 30 days, at most 366): errors, occurrences, CSP violations, page views, p75 per metric (null with `p75=false`, which reads less)',
    auth: 'siteApiKey',
    heavyRead: true,
    query: DailyQuerySchema,
    responses: { 200: { description: 'One point per UTC day', schema: DailyViewSchema } },
    async handle({ site, query }) {
      const siteKey = site!.site_key;
      const now = Date.now();
      const since = seriesStart(query.since, now, 30);
      const [errors, csp, pageViews, ...metrics] = await Promise.all([
        store.errors.daily(siteKey, { since }),
        store.csp.daily(siteKey, { since }),
        store.performance.daily(siteKey, { since }),
        ...(query.p75 ? [...VITALS_THRESHOLDS.keys()] : []).map(async (name) => [name, await store.performance.metricDaily(siteKey, { name, since })] as const),
      ]);
      return { site_key: siteKey, since: iso(since), days: buildDailySeries({ since, now, errors, csp, pageViews, p75: new Map(metrics) }) };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/v1/sites/:site_key/error-groups',
    tag: TAG,
    summary: 'Errors by fingerprint (without `sitebeacon check` submissions), most occurrences first, each with its distinct sessions and occurrences per UTC day since `since` (default 7 days)',
    auth: 'siteApiKey',
    heavyRead: true,
    query: TableQuerySchema,
    responses: { 200: { description: 'The error groups', schema: ErrorGroupsViewSchema } },
    async handle({ site, query }) {
      const siteKey = site!.site_key;
      const now = Date.now();
      const since = seriesStart(query.since, now, 7);
      const limit = query.limit;
      // `sitebeacon check`'s test submissions are not the site's errors (design, "Connectivity diagnosis"):
      // left out, with room for a few of them in the read.
      const rows = (await store.errors.groups(siteKey, { since, limit: limit + 10 })).filter((group) => !isConnectivityCheck(group)).slice(0, limit);
      const { errors } = buildSummary({ errorGroups: rows, cspGroups: [], metrics: new Map() });
      const data = await Promise.all(
        errors.map(async (group) => ({
          ...group,
          sessions: await store.errors.sessions(siteKey, { fingerprint: group.fingerprint, since }),
          daily: fillDays(since, now, await store.errors.daily(siteKey, { fingerprint: group.fingerprint, since }), { reports: 0, count: 0 }),
        })),
      );
      return { site_key: siteKey, since: iso(since), data };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/v1/sites/:site_key/error-groups/:fingerprint',
    tag: TAG,
    summary: 'One error group since `since` (default 30 days): counts, its latest report (stack), occurrences per UTC day, pages and browsers',
    auth: 'siteApiKey',
    heavyRead: true,
    query: TableQuerySchema,
    responses: { 200: { description: 'The group, its latest report (with its causes), days, pages and browsers', schema: ErrorGroupDetailSchema }, 404: 'unknown_error_group' },
    async handle({ site, event, query }) {
      const siteKey = site!.site_key;
      const now = Date.now();
      const since = seriesStart(query.since, now, 30);
      const limit = query.limit;
      const fingerprint = getRouterParam(event, 'fingerprint') ?? '';
      const [row] = await store.errors.groups(siteKey, { fingerprint, since, limit: 1 });
      if (!row) throw apiError(404, 'unknown_error_group', 'no errors of this fingerprint in this range');
      const [group] = buildSummary({ errorGroups: [row], cspGroups: [], metrics: new Map() }).errors;
      const [sessions, latest, daily, pages, agents] = await Promise.all([
        store.errors.sessions(siteKey, { fingerprint, since }),
        store.errors.latest(siteKey, fingerprint),
        store.errors.daily(siteKey, { fingerprint, since }),
        store.errors.breakdown(siteKey, { fingerprint, field: 'page_url', since, limit }),
        store.errors.breakdown(siteKey, { fingerprint, field: 'user_agent', since, limit: 100 }),
      ]);
      return {
        site_key: siteKey,
        since: iso(since),
        group: { ...group!, sessions },
        latest: latest ?? null,
        daily: fillDays(since, now, daily, { reports: 0, count: 0 }),
        pages: pages.map(({ value, reports }) => ({ page_url: value, reports })),
        browsers: browserCounts(agents).slice(0, limit),
      };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/v1/sites/:site_key/csp-groups',
    tag: TAG,
    summary: 'CSP violations by effective directive and blocked host, most reports first, since `since` (default 7 days)',
    auth: 'siteApiKey',
    heavyRead: true,
    query: TableQuerySchema,
    responses: { 200: { description: 'The CSP groups', schema: CspGroupsViewSchema } },
    async handle({ site, query }) {
      const siteKey = site!.site_key;
      const since = seriesStart(query.since, Date.now(), 7);
      return { site_key: siteKey, since: iso(since), data: await store.csp.groups(siteKey, { since, limit: query.limit }) };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/v1/sites/:site_key/vitals',
    tag: TAG,
    summary:
      'Per Web Vital since `since` (default 7 days, at most 366): samples, p75 and its rating, the good / needs-improvement / poor shares, and the p75 per UTC day (null without samples)',
    auth: 'siteApiKey',
    heavyRead: true,
    query: RangeQuerySchema,
    responses: { 200: { description: 'Per Web Vital', schema: VitalsViewSchema } },
    async handle({ site, query }) {
      const siteKey = site!.site_key;
      const now = Date.now();
      const since = seriesStart(query.since, now, 7);
      // One read per metric for both the counts and the days (store contract: metricCountsWithDays).
      const read = await Promise.all(
        [...VITALS_THRESHOLDS].map(async ([name, thresholds]) => [name, await store.performance.metricCountsWithDays(siteKey, { name, thresholds, since })] as const),
      );
      const { vitals } = buildSummary({ errorGroups: [], cspGroups: [], metrics: new Map(read) });
      return {
        site_key: siteKey,
        since: iso(since),
        vitals: Object.fromEntries(
          read.map(([name, { daily }]) => {
            const summary = vitals[name]!;
            const rating = summary.p75 === null ? null : rateMetric(name, summary.p75)!;
            return [name, { ...summary, rating, daily: fillDays<{ day: number; samples: number; p75: number | null }>(since, now, daily, { samples: 0, p75: null }) }];
          }),
        ),
      };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/v1/sites/:site_key/pages',
    tag: TAG,
    summary: 'Per page (most sessions first): sessions, and per metric the p75 with its rating, since `since` (default 7 days)',
    auth: 'siteApiKey',
    heavyRead: true,
    query: TableQuerySchema,
    responses: { 200: { description: 'Per page', schema: PagesViewSchema } },
    async handle({ site, query: { since = Date.now() - 7 * DAY, limit } }) {
      const siteKey = site!.site_key;
      return { site_key: siteKey, since: iso(since), data: buildPageVitals(await store.performance.pages(siteKey, { since, limit })) };
    },
  }),
];
