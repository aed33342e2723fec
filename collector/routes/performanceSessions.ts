import type { PerformanceSession } from '../core/records';
import { routeOf } from '../core/routes';
import { JSON_MEDIA_TYPES } from '../http/readJsonBody';
import type { Metrics } from '../http/metrics';
import type { Route } from '../http/route';
import type { VisitorOf } from '../http/visitorOf';
import { jsonSchemaOf } from '../openapi/jsonSchemaOf';
import { PerformanceSessionObjectSchema, PerformanceSessionSchema } from '../schemas/performanceSession';
import type { Store } from '../store/contract';
import { routePatternCache } from '../store/routePatternCache';
import { accepted, ingestRoutes, receiveContext } from './ingest';

/**
 * `POST` and `PUT /api/performance-sessions/{site_key}` with the preflight: the first submission
 * of a `session_id` creates the session, later ones update it (each metric keeps its latest value).
 * A submission with a page URL sets the session's route, by the site's patterns (docs/vitals.md, "Routes").
 */
export const performanceSessionRoutes = ({ store, metrics, visitorOf }: { store: Store; metrics: Metrics; visitorOf: VisitorOf }): Route[] => {
  const patternsOf = routePatternCache(store.routes);
  return ingestRoutes<PerformanceSession>({
    kind: 'performance',
    path: '/api/performance-sessions',
    methods: ['POST', 'PUT'],
    unkeyed: false,
    tag: 'Collection',
    summary: (method) =>
      method == 'POST' ? 'Create or update a performance session' : 'Update a performance session (each metric keeps its latest value)',
    body: { schema: PerformanceSessionSchema, mediaTypes: JSON_MEDIA_TYPES, jsonSchema: jsonSchemaOf(PerformanceSessionObjectSchema) },
    async handle({ event, site, body }) {
      const siteKey = site!.site_key;
      // Set here, whatever the body says: a session's route is the collector's to work out.
      const route = body.page_url === undefined ? undefined : routeOf(body.page_url, await patternsOf(siteKey));
      await metrics.storeWrite(async () => store.performance.upsert(siteKey, { ...body, route }, await receiveContext(event, siteKey, visitorOf)));
      return accepted(event, 1);
    },
  });
};
