import type { H3 } from 'h3';
import { apiError } from '../http/apiError';
import { accepted, ingestRoutes, type IngestDeps } from '../http/ingestRoutes';
import { JSON_MEDIA_TYPES } from '../http/readJsonBody';
import { describeIssues } from '../schemas/describeIssues';
import { parseErrorReports } from '../schemas/errorReport';

/**
 * `POST /api/error-reports` (spec section 4, default site) and `POST /api/error-reports/{site_key}`
 * with its preflight: one report or an array of at most 50.
 */
export const errorReportRoutes = (app: H3, deps: IngestDeps) =>
  ingestRoutes(app, {
    ...deps,
    path: '/api/error-reports',
    methods: ['POST'],
    mediaTypes: JSON_MEDIA_TYPES,
    unkeyed: true,
    async handle({ event, site, body, userAgent }) {
      const parsed = parseErrorReports(body);
      if (!parsed.success) throw apiError(400, 'invalid_report', describeIssues(parsed.issues));
      const count = await deps.store.insertErrorReports(site.siteKey, parsed.output, { receivedAt: Date.now(), userAgent });
      return accepted(event, count);
    },
  });
