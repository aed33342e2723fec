import { isConnectivityCheck } from '../core/connectivityCheck';
import { newErrorReport } from '../core/newReports';
import type { ErrorReport } from '../core/records';
import { JSON_MEDIA_TYPES } from '../http/readJsonBody';
import { jsonSchemaOf } from '../openapi/jsonSchemaOf';
import type { Metrics } from '../http/metrics';
import type { Route } from '../http/route';
import type { VisitorOf } from '../http/visitorOf';
import type { Store } from '../store/contract';
import { ErrorReportSchema, ErrorReportsSchema } from '../schemas/errorReport';
import { sourceMapsOf } from '../sourcemaps/sourceMapsOf';
import { accepted, ingestRoutes, receiveContext } from './ingest';

/**
 * `POST /api/error-reports` (spec section 4, default site) and `POST /api/error-reports/{site_key}`
 * with its preflight: one report or an array of at most 50. The collector's own origin (its
 * dashboard's setup page) may send connectivity checks (error_type "connectivity_check") to any site.
 * A report whose release has a map for its first in-app frame is grouped by the source's place
 * (sourcemaps/ingestIndex.ts, docs/grouping.md "Across releases"), found from the map's compiled
 * form; a release this collector has not seen yet waits, within a bound, for its maps.
 */
export const errorReportRoutes = ({ store, metrics, visitorOf }: { store: Store; metrics: Metrics; visitorOf: VisitorOf }): Route[] => {
  const single = jsonSchemaOf(ErrorReportSchema);
  return ingestRoutes<ErrorReport[]>({
    kind: 'error',
    path: '/api/error-reports',
    methods: ['POST'],
    unkeyed: true,
    tag: 'Collection',
    summary: (_method, keyed) => (keyed ? 'Error report(s) for a site' : 'Error report(s) for the default site'),
    body: {
      schema: ErrorReportsSchema,
      mediaTypes: JSON_MEDIA_TYPES,
      jsonSchema: { oneOf: [single, { type: 'array', minItems: 1, maxItems: 50, items: single }] },
    },
    // The dashboard's connectivity check (spec section 5.2) sends from the collector's own origin.
    ownOrigin: (reports) => reports.every(isConnectivityCheck),
    async handle({ event, site, body }) {
      const siteKey = site!.site_key;
      const { index } = sourceMapsOf(store.sourceMaps);
      const reports = await Promise.all(body.map(async (report) => newErrorReport(report, await index.originalOf(siteKey, report))));
      const count = await metrics.storeWrite(async () => store.errors.insert(siteKey, reports, await receiveContext(event, siteKey, visitorOf)));
      return accepted(event, count);
    },
  });
};
