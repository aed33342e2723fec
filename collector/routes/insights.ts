import { getRouterParam } from 'h3';
import { apiError } from '../http/apiError';
import { defineRoute } from '../http/route';
import { readCspGroups } from '../reads/readCspGroups';
import { readDaily } from '../reads/readDaily';
import { readErrorGroup } from '../reads/readErrorGroup';
import { readErrorGroups } from '../reads/readErrorGroups';
import { readPages } from '../reads/readPages';
import { readSites } from '../reads/readSites';
import { readVitals } from '../reads/readVitals';
import {
  CspGroupsViewSchema,
  DailyViewSchema,
  ErrorGroupDetailSchema,
  ErrorGroupsViewSchema,
  PagesViewSchema,
  SiteListSchema,
  VitalsViewSchema,
} from '../schemas/answers/readViews';
import { DailyQuerySchema, PagesQuerySchema, TableQuerySchema, VitalsQuerySchema } from '../schemas/readQuery';
import type { Store } from '../store/contract';

const TAG = 'Read API';

/**
 * The read API's views for the dashboard (README, "The dashboard"), open to API keys and to signed-in
 * users alike (the dashboard reads nothing else): the caller's sites, a site's daily series, its
 * error groups with sessions and trends, one group's detail, CSP violations by group, the Web
 * Vitals with their daily p75, and per-page vitals. Each is declared here and read by its view
 * in reads/ (one function per view).
 */
export const insightRoutes = ({ store }: { store: Store }) => [
  defineRoute({
    method: 'GET',
    path: '/api/v1/sites',
    tag: TAG,
    summary: "The sites the caller may see: a site's key sees its site, an installation key or an unrestricted user every site",
    auth: 'reader',
    responses: { 200: { description: 'The sites', schema: SiteListSchema } },
    handle: (caller) => readSites(store, caller),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/v1/sites/:site_key/daily',
    tag: TAG,
    summary:
      'Per UTC day since `since` (default 30 days, at most 366): errors (without `sitebeacon check` submissions), occurrences, CSP violations, page views, p75 per metric (null with `p75=false`, which reads less); per UTC hour too for a range of 48 hours or less; the totals, and the previous range of the same length\'s',
    auth: 'siteApiKey',
    heavyRead: true,
    query: DailyQuerySchema,
    responses: { 200: { description: 'One point per UTC day', schema: DailyViewSchema } },
    handle: ({ site, query }) => readDaily(store, site!, query),
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
    handle: ({ site, query }) => readErrorGroups(store, site!, query),
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
      const detail = await readErrorGroup(store, site!, { ...query, fingerprint: getRouterParam(event, 'fingerprint') ?? '' });
      if (!detail) throw apiError(404, 'unknown_error_group', 'no errors of this fingerprint in this range');
      return detail;
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/v1/sites/:site_key/csp-groups',
    tag: TAG,
    summary: 'CSP violations by effective directive, blocked host and disposition, enforced (blocked) first, then most reports first, since `since` (default 7 days)',
    auth: 'siteApiKey',
    heavyRead: true,
    query: TableQuerySchema,
    responses: { 200: { description: 'The CSP groups', schema: CspGroupsViewSchema } },
    handle: ({ site, query }) => readCspGroups(store, site!, query),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/v1/sites/:site_key/vitals',
    tag: TAG,
    summary:
      'Per Web Vital since `since` (default 7 days, at most 366): samples, p75 and its rating, the good / needs-improvement / poor shares, and the p75 per UTC day (null without samples); with `device` (mobile, tablet, desktop), of that kind of device\'s sessions alone; with `route`, of that route\'s (as `/pages` lists it)',
    auth: 'siteApiKey',
    heavyRead: true,
    query: VitalsQuerySchema,
    responses: { 200: { description: 'Per Web Vital', schema: VitalsViewSchema } },
    handle: ({ site, query }) => readVitals(store, site!, query),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/v1/sites/:site_key/pages',
    tag: TAG,
    summary:
      'Per route (most sessions first; query and fragment dropped, ids as :id, the site\'s patterns first): sessions, one page URL, and per metric the p75 with its rating, since `since` (default 7 days); with `device` (mobile, tablet, desktop), of that kind of device\'s sessions alone',
    auth: 'siteApiKey',
    heavyRead: true,
    query: PagesQuerySchema,
    responses: { 200: { description: 'Per page', schema: PagesViewSchema } },
    handle: ({ site, query }) => readPages(store, site!, query),
  }),
];
