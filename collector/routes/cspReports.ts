import type { H3 } from 'h3';
import { apiError } from '../http/apiError';
import { accepted, ingestRoutes, type IngestDeps } from '../http/ingestRoutes';
import { isNoise, parseCspReports } from '../schemas/cspReport';

/**
 * What browsers send CSP reports as: `report-uri` uses application/csp-report, the Reporting API
 * application/reports+json, our beacon application/json (fetch) or text/plain (sendBeacon).
 */
const CSP_MEDIA_TYPES = ['application/csp-report', 'application/json', 'application/reports+json', 'text/plain'];

/**
 * `POST /api/csp-reports` (spec section 4, default site) and `POST /api/csp-reports/{site_key}`
 * with its preflight (Chromium preflights a cross-origin Reporting API endpoint).
 */
export const cspReportRoutes = (app: H3, deps: IngestDeps) =>
  ingestRoutes(app, {
    ...deps,
    path: '/api/csp-reports',
    methods: ['POST'],
    mediaTypes: CSP_MEDIA_TYPES,
    unkeyed: true,
    async handle({ event, site, body, userAgent }) {
      const parsed = parseCspReports(body);
      if (!parsed.success) throw apiError(400, 'invalid_report', parsed.message);
      const reports = parsed.output.filter((report) => !isNoise(report));
      // Noise is acknowledged, not refused: a 4xx only makes a browser send it again.
      if (!reports.length) {
        event.res.status = 204;
        return null;
      }
      const count = await deps.store.insertCspReports(site.siteKey, reports, { receivedAt: Date.now(), userAgent });
      return accepted(event, count);
    },
  });
