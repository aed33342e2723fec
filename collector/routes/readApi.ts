import type * as v from 'valibot';
import { defineRoute } from '../http/route';
import { pageOf, StoredCspReportSchema, StoredErrorReportSchema, StoredPerformanceSessionSchema } from '../schemas/answers/storedRecords';
import { SummaryViewSchema } from '../schemas/answers/readViews';
import { ListQuerySchema, SummaryQuerySchema } from '../schemas/readQuery';
import type { ListOptions, Page, Store } from '../store/contract';
import { readSummary } from '../reads/readSummary';

/** One list of stored records, oldest first: its name in the path, its record's schema and the store's read. */
const listRoute = <const Name extends string, Item extends v.GenericSchema>(
  name: Name,
  item: Item,
  list: (siteKey: string, options: ListOptions) => Promise<Page<v.InferInput<Item>>>,
) =>
  defineRoute({
    method: 'GET',
    path: `/api/v1/sites/:site_key/${name}`,
    tag: 'Read API',
    summary: `Stored ${name}, oldest first`,
    auth: 'siteApiKey',
    heavyRead: true,
    query: ListQuerySchema,
    responses: { 200: { description: 'A page, oldest first', schema: pageOf(item) } },
    handle: ({ site, query }) => list(site!.site_key, query),
  });

/**
 * The read API (`Authorization: Bearer KEY`): `GET /api/v1/sites/{site_key}/error-reports`,
 * `/csp-reports`, `/performance-sessions` (oldest first; `since`, `limit`, and `cursor` = the
 * previous page's `next_cursor`), and `/summary`.
 */
export const readApiRoutes = ({ store }: { store: Store }) => [
  listRoute('error-reports', StoredErrorReportSchema, store.errors.list),
  listRoute('csp-reports', StoredCspReportSchema, store.csp.list),
  listRoute('performance-sessions', StoredPerformanceSessionSchema, store.performance.list),
  defineRoute({
    method: 'GET',
    path: '/api/v1/sites/:site_key/summary',
    tag: 'Read API',
    summary: 'Errors by fingerprint, CSP violations by directive and blocked host, p75 and ratings per metric',
    auth: 'siteApiKey',
    heavyRead: true,
    query: SummaryQuerySchema,
    responses: { 200: { description: 'The summary', schema: SummaryViewSchema } },
    handle: ({ site, query }) => readSummary(store, site!, query),
  }),
];
