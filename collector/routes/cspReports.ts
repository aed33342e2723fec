import { isNoise } from '../core/cspNoise';
import { newCspReport } from '../core/newReports';
import type { CspReport } from '../core/records';
import type { Route } from '../http/route';
import { CspReportsSchema } from '../schemas/cspReport';
import type { Store } from '../store/contract';
import { accepted, ingestRoutes, receiveContext } from './ingest';

/**
 * What browsers send CSP reports as: `report-uri` uses application/csp-report, the Reporting API
 * application/reports+json, our beacon application/json (fetch) or text/plain (sendBeacon).
 */
const CSP_MEDIA_TYPES = ['application/csp-report', 'application/json', 'application/reports+json', 'text/plain'];

const REPORTING_API_REPORT = { $ref: '#/components/schemas/ReportingApiReport' };

/** The accepted shapes (../shared/design.md, "Formats accepted"), documented by hand: CspReportsSchema normalises them. */
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

/**
 * `POST /api/csp-reports` (spec section 4, default site) and `POST /api/csp-reports/{site_key}`
 * with its preflight (Chromium preflights a cross-origin Reporting API endpoint).
 */
export const cspReportRoutes = ({ store }: { store: Store }): Route[] =>
  ingestRoutes<CspReport[]>({
    path: '/api/csp-reports',
    methods: ['POST'],
    unkeyed: true,
    tag: 'Collection',
    summary: (_method, keyed) => (keyed ? 'CSP report(s) for a site' : 'CSP report(s) for the default site'),
    body: { schema: CspReportsSchema, mediaTypes: CSP_MEDIA_TYPES, jsonSchema: CSP_BODY },
    responses: { 204: 'Noise (browser extensions, about:): not stored' },
    async handle({ event, site, body }) {
      const reports = body.filter((report) => !isNoise(report)).map(newCspReport);
      // Noise is acknowledged, not refused: a 4xx only makes a browser send it again.
      if (!reports.length) {
        event.res.status = 204;
        return null;
      }
      return accepted(event, await store.csp.insert(site!.site_key, reports, receiveContext(event)));
    },
  });
