import { getRouterParam, type H3, type H3Event } from 'h3';
import * as v from 'valibot';
import { apiError } from '../http/apiError';
import { requireSite } from '../http/apiKeys';
import { methodNotAllowed } from '../http/methodNotAllowed';
import { describeIssues } from '../schemas/describeIssues';
import type { ListOptions, Store } from '../store/store';

const isoDate = v.pipe(
  v.string(),
  v.check((text) => !Number.isNaN(Date.parse(text)), 'since must be an ISO date, like 2026-11-01T00:00:00Z'),
);
const positiveInteger = (max: number) =>
  v.pipe(v.string(), v.regex(/^\d{1,12}$/, 'must be a whole number'), v.transform(Number), v.minValue(1), v.maxValue(max));

const ListQuerySchema = v.object({
  since: v.optional(isoDate),
  cursor: v.optional(v.pipe(v.string(), v.regex(/^\d{1,18}$/, 'cursor must be the next_cursor of a previous page'), v.transform(Number))),
  limit: v.optional(positiveInteger(1000)),
});
const SummaryQuerySchema = v.object({ since: v.optional(isoDate), limit: v.optional(positiveInteger(1000)) });

const parseQuery = <S extends v.GenericSchema>(event: H3Event, schema: S): v.InferOutput<S> => {
  const parsed = v.safeParse(schema, Object.fromEntries(event.url.searchParams));
  if (!parsed.success) throw apiError(400, 'bad_request', describeIssues(parsed.issues));
  return parsed.output;
};

/**
 * The read API for API-key holders (`Authorization: Bearer KEY`):
 * `GET /api/v1/sites/{site_key}/error-reports`, `/csp-reports`, `/performance-sessions` (oldest
 * first; `since`, `limit`, and `cursor` = the previous page's `next_cursor`), and `/summary`.
 */
export const readApiRoutes = (app: H3, { store }: { store: Store }) => {
  const siteFor = async (event: H3Event) => (await requireSite(event, store, getRouterParam(event, 'site_key')!)).site.siteKey;

  const lists: Record<string, (siteKey: string, options: ListOptions) => Promise<Array<{ id: number }>>> = {
    'error-reports': (siteKey, options) => store.listErrorReports(siteKey, options),
    'csp-reports': (siteKey, options) => store.listCspReports(siteKey, options),
    'performance-sessions': (siteKey, options) => store.listPerformanceSessions(siteKey, options),
  };
  for (const [name, list] of Object.entries(lists)) {
    const route = `/api/v1/sites/:site_key/${name}`;
    app.get(route, async (event) => {
      const siteKey = await siteFor(event);
      const { since, cursor, limit = 100 } = parseQuery(event, ListQuerySchema);
      const page = await list(siteKey, { since, afterId: cursor, limit });
      return { data: page, next_cursor: page.length == limit ? String(page[page.length - 1]!.id) : null };
    });
    methodNotAllowed(app, route, ['GET', 'HEAD']);
  }

  app.get('/api/v1/sites/:site_key/summary', async (event) => {
    const siteKey = await siteFor(event);
    const { since, limit } = parseQuery(event, SummaryQuerySchema);
    return { site_key: siteKey, since: since ?? null, ...(await store.summarize(siteKey, { since, limit })) };
  });
  methodNotAllowed(app, '/api/v1/sites/:site_key/summary', ['GET', 'HEAD']);
};
