import type { H3 } from 'h3';
import { apiError } from '../http/apiError';
import { accepted, ingestRoutes, type IngestDeps } from '../http/ingestRoutes';
import { JSON_MEDIA_TYPES } from '../http/readJsonBody';
import { describeIssues } from '../schemas/describeIssues';
import { parsePerformanceSession } from '../schemas/performanceSession';

/**
 * `POST` and `PUT /api/performance-sessions/{site_key}` with the preflight: the first submission
 * of a `session_id` creates the session, later ones update it (each metric keeps its latest value).
 */
export const performanceSessionRoutes = (app: H3, deps: IngestDeps) =>
  ingestRoutes(app, {
    ...deps,
    path: '/api/performance-sessions',
    methods: ['POST', 'PUT'],
    mediaTypes: JSON_MEDIA_TYPES,
    unkeyed: false,
    async handle({ event, site, body, userAgent }) {
      const parsed = parsePerformanceSession(body);
      if (!parsed.success) throw apiError(400, 'invalid_report', describeIssues(parsed.issues));
      await deps.store.upsertPerformanceSession(site.siteKey, parsed.output, { receivedAt: Date.now(), userAgent });
      return accepted(event, 1);
    },
  });
