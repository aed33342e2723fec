import { getRouterParam, type H3, type H3Event } from 'h3';
import * as v from 'valibot';
import { apiError } from '../http/apiError';
import { allowPreflight } from '../http/cors';
import { methodNotAllowed } from '../http/methodNotAllowed';
import { JSON_MEDIA_TYPES, readJsonBody } from '../http/readJsonBody';
import { siteForRequest } from '../http/siteForRequest';
import { parseErrorReports } from '../schemas/errorReport';
import type { Store } from '../store/store';

/** The 202 body of every accepted submission (design, "Responses"). */
export const accepted = (event: H3Event, count: number) => {
  event.res.status = 202;
  return { status: 'accepted', accepted: count };
};

/** Turns valibot issues into the message of a 400 `invalid_report`. */
export const describeIssues = (issues: v.BaseIssue<unknown>[]) =>
  issues
    .slice(0, 5)
    .map((issue) => {
      const path = v.getDotPath(issue);
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join('; ');

/**
 * `POST /api/error-reports` (spec section 4, default site) and `POST /api/error-reports/{site_key}`
 * with its preflight.
 */
export const errorReportRoutes = (app: H3, { store }: { store: Store }) => {
  const receive = async (event: H3Event, siteKey?: string) => {
    const site = await siteForRequest(event, store, siteKey);
    const body = await readJsonBody(event, { mediaTypes: JSON_MEDIA_TYPES });
    const parsed = parseErrorReports(body);
    if (!parsed.success) throw apiError(400, 'invalid_report', describeIssues(parsed.issues));
    const count = await store.insertErrorReports(site.siteKey, parsed.output, {
      receivedAt: Date.now(),
      userAgent: event.req.headers.get('user-agent')?.slice(0, 512),
    });
    return accepted(event, count);
  };

  app.post('/api/error-reports', (event) => receive(event));
  app.post('/api/error-reports/:site_key', (event) => receive(event, getRouterParam(event, 'site_key')!));
  app.options('/api/error-reports/:site_key', async (event) => {
    // The same site and origin checks as the POST: a foreign origin learns nothing more here.
    await siteForRequest(event, store, getRouterParam(event, 'site_key')!);
    const origin = event.req.headers.get('origin');
    if (origin) allowPreflight(event, origin, ['POST']);
    event.res.headers.set('allow', 'POST, OPTIONS');
    event.res.status = 204;
    return null;
  });
  methodNotAllowed(app, '/api/error-reports', ['POST']);
  methodNotAllowed(app, '/api/error-reports/:site_key', ['POST', 'OPTIONS']);
};
