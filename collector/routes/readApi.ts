import { defineRoute, type Route } from '../http/route';
import { ListQuerySchema, SummaryQuerySchema } from '../schemas/readQuery';
import type { ListOptions, Page, Store } from '../store/contract';
import { readSummary } from '../store/readSummary';

const PAGE = { description: 'A page, oldest first', schema: { $ref: '#/components/schemas/Page' } };

/**
 * The read API (`Authorization: Bearer KEY`): `GET /api/v1/sites/{site_key}/error-reports`,
 * `/csp-reports`, `/performance-sessions` (oldest first; `since`, `limit`, and `cursor` = the
 * previous page's `next_cursor`), and `/summary`.
 */
export const readApiRoutes = ({ store }: { store: Store }): Route[] => {
  const lists: Array<[string, (siteKey: string, options: ListOptions) => Promise<Page<unknown>>]> = [
    ['error-reports', store.errors.list],
    ['csp-reports', store.csp.list],
    ['performance-sessions', store.performance.list],
  ];
  return [
    ...lists.map(([name, list]) =>
      defineRoute({
        method: 'GET',
        path: `/api/v1/sites/:site_key/${name}`,
        tag: 'Read API',
        summary: `Stored ${name}, oldest first`,
        auth: 'siteApiKey',
        heavyRead: true,
        query: ListQuerySchema,
        responses: { 200: PAGE },
        handle: ({ site, query }) => list(site!.site_key, query),
      }),
    ),
    defineRoute({
      method: 'GET',
      path: '/api/v1/sites/:site_key/summary',
      tag: 'Read API',
      summary: 'Errors by fingerprint, CSP violations by directive and blocked host, p75 and ratings per metric',
      auth: 'siteApiKey',
      heavyRead: true,
      query: SummaryQuerySchema,
      responses: { 200: 'Summary' },
      async handle({ site, query: { since, limit } }) {
        const siteKey = site!.site_key;
        return {
          site_key: siteKey,
          since: since === undefined ? null : new Date(since).toISOString(),
          ...(await readSummary(store, siteKey, { since, limit })),
        };
      },
    }),
  ];
};
