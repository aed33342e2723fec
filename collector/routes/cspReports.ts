import type { H3Event } from 'h3';
import { isAllowedDocument } from '../core/allowedDocument';
import { REPEAT_WINDOW_MS, repeatKeyOf } from '../core/cspCopies';
import { isNoise } from '../core/cspNoise';
import { newCspReport } from '../core/newReports';
import type { CspReport, CspSource } from '../core/records';
import { mediaTypeOf } from '../http/readJsonBody';
import { createRecentKeys } from '../http/recentKeys';
import type { Metrics } from '../http/metrics';
import type { Route } from '../http/route';
import type { VisitorOf } from '../http/visitorOf';
import { CspReportsSchema } from '../schemas/cspReport';
import type { Store } from '../store/contract';
import { accepted, ingestRoutes, receiveContext } from './ingest';
import { AcceptedSchema } from '../schemas/answers/accepted';

/**
 * What browsers send CSP reports as: `report-uri` uses application/csp-report, the Reporting API
 * application/reports+json, our beacon application/json (fetch) or text/plain (sendBeacon).
 */
const CSP_MEDIA_TYPES = ['application/csp-report', 'application/json', 'application/reports+json', 'text/plain'];

const REPORTING_API_REPORT = { $ref: '#/components/schemas/ReportingApiReport' };

/** The accepted shapes (docs/wire-format.md, "CSP reports"), documented by hand: CspReportsSchema normalises them. */
const CSP_BODY = {
  oneOf: [
    {
      type: 'object',
      description: 'CSP2 report-uri shape (also our beacon)',
      required: ['csp-report'],
      properties: { 'csp-report': { type: 'object', required: ['document-uri'], additionalProperties: true } },
    },
    {
      type: 'array',
      description: 'Reporting API batch (application/reports+json); other report types are stored by type',
      maxItems: 100,
      items: REPORTING_API_REPORT,
    },
    { ...REPORTING_API_REPORT, description: "Safari's single report" },
  ],
};

const CSP_ACCEPTED = {
  description:
    'Stored (after commit). `merged`: how many of the `accepted` reports were a further copy of a violation already stored ' +
    "(the beacon's copy and the browser's own report of one violation are stored once, and so is a browser's repeat of its " +
    'own report). `foreign`: reports sent with ' +
    '`Origin: null` whose document is not of an allowed origin, not stored.',
  schema: AcceptedSchema,
};

/**
 * A CSP2 object's source: the browser's own `report-uri` POSTs it as application/csp-report (CSP2
 * §4.4, WebKit too); the beacon sends JSON (fetch) or text/plain (sendBeacon). Reporting API
 * shapes are `report-to` whatever their Content-Type (WebKit's come as application/csp-report).
 */
const csp2SourceOf = (mediaType: string): CspSource => (mediaType == 'application/csp-report' ? 'report-uri' : 'beacon');

/**
 * `POST /api/csp-reports` (spec section 4, default site) and `POST /api/csp-reports/{site_key}`
 * with its preflight (Chromium preflights a cross-origin Reporting API endpoint). Each violation is
 * counted once (docs/csp-reports.md): a client's identical report within REPEAT_WINDOW_MS is its browser
 * repeating itself and is not stored again (remembered in memory, per process), and the store
 * merges the beacon's copy and the browser's own report (core/cspCopies.ts). Browsers' own reports
 * with `Origin: null` (WebKit's) are taken for the reports whose document is of one of the site's
 * allowed origins; the others are not stored, and answered 2xx all the same, so that no browser
 * retries them, and counted in the request log (`foreign_reports`).
 *
 * @example
 * cspReportRoutes({ store, metrics, clientOf: (event) => clientIp(event, false), visitorOf });
 */
export const cspReportRoutes = ({
  store,
  metrics,
  clientOf,
  visitorOf,
}: {
  store: Store;
  metrics: Metrics;
  clientOf: (event: H3Event) => string;
  visitorOf: VisitorOf;
}): Route[] => {
  const recent = createRecentKeys({ windowMs: REPEAT_WINDOW_MS });
  return ingestRoutes<CspReport[]>({
    kind: 'csp',
    path: '/api/csp-reports',
    methods: ['POST'],
    unkeyed: true,
    auth: 'reports',
    tag: 'Collection',
    summary: (_method, keyed) => (keyed ? 'CSP report(s) for a site' : 'CSP report(s) for the default site'),
    body: { schema: CspReportsSchema, mediaTypes: CSP_MEDIA_TYPES, jsonSchema: CSP_BODY },
    responses: { 202: CSP_ACCEPTED, 204: 'Noise (browser extensions, about:), or only foreign documents: not stored' },
    async handle({ event, site, body, opaqueOrigin }) {
      const siteKey = site!.site_key;
      const own = (report: CspReport) => !opaqueOrigin || isAllowedDocument(report.document_uri, site!.allowed_origins);
      const source = csp2SourceOf(mediaTypeOf(event));
      // The parsed reports are this request's own: each gets its source in place.
      const reports: CspReport[] = [];
      let foreign = 0;
      for (const report of body) {
        if (!own(report)) foreign++;
        else if (!isNoise(report)) {
          report.source ??= source;
          reports.push(report);
        }
      }
      if (foreign) event.context.foreign_reports = foreign;
      // Noise is acknowledged, not refused: a 4xx only makes a browser send it again.
      if (!reports.length) {
        event.res.status = 204;
        return null;
      }
      const client = `${clientOf(event)} ${event.req.headers.get('user-agent') ?? ''}`;
      const remembered: string[] = [];
      const fresh = reports.filter((report) => {
        const key = repeatKeyOf(siteKey, report, client);
        if (key === undefined) return true;
        if (recent.seen(key)) return false;
        remembered.push(key);
        return true;
      });
      let stored = 0;
      try {
        if (fresh.length) {
          stored = await metrics.storeWrite(async () => store.csp.insert(siteKey, fresh.map(newCspReport), await receiveContext(event, siteKey, visitorOf)));
        }
      } catch (error) {
        // Not stored: a retry of these is no repeat.
        for (const key of remembered) recent.forget(key);
        throw error;
      }
      const merged = reports.length - stored;
      return { ...accepted(event, reports.length), ...(merged ? { merged } : {}), ...(foreign ? { foreign } : {}) };
    },
  });
};
