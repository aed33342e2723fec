import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getRouterParam, type H3Event } from 'h3';
import { dashboardPolicy } from '../core/dashboardPolicy';
import { setupUrls, type Links } from '../core/setupUrls';
import { userMaySee } from '../core/users';
import { apiError } from '../http/apiError';
import { defineRoute, type Route } from '../http/route';
import { requireUser } from '../http/sessionAuth';
import type { Store } from '../store/contract';

const TYPES: Record<string, string> = { js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8' };
/** What rollup names the dashboard's files: `name-HASH.ext` (rollup.config.mjs). */
const ASSET = /^[\w-]{1,80}\.(js|css)$/;

/**
 * The dashboard (docs/dashboard.md; README, "The dashboard"): its pages, all answered with
 * the one shell rollup built (dist/dashboard/index.html; the script reads the path), and its
 * hashed assets, cached for a year as immutable. Every answer carries the dashboard's strict CSP.
 * A page's status says what its data calls will meet: 401 signed out (the shell shows the
 * sign-in form), 403 for a site the user may not see, 404 for no such site.
 */
export const dashboardRoutes = ({ store, links, dir }: { store: Store; links: Links; dir: string }): Route[] => {
  const files = new Map<string, Buffer>();
  const read = (name: string) => {
    let body = files.get(name);
    if (!body) {
      try {
        body = readFileSync(join(dir, name));
      } catch {
        throw apiError(404, 'not_found', name == 'index.html' ? 'the dashboard is not built; run `npm run build`' : 'no such file');
      }
      files.set(name, body);
    }
    return body;
  };
  const secure = (event: H3Event) => {
    const policy = dashboardPolicy(setupUrls(links));
    for (const headers of [event.res.headers, event.res.errHeaders]) {
      headers.set('content-security-policy', policy.header);
      headers.set('reporting-endpoints', policy.reportingEndpoints);
      headers.set('x-content-type-options', 'nosniff');
      headers.set('referrer-policy', 'same-origin');
      headers.set('cross-origin-opener-policy', 'same-origin');
    }
  };
  // The status the page's data will meet: the shell is the same, but a user or a script learns
  // from the status alone that the site is not theirs.
  const statusFor = async (event: H3Event) => {
    const siteKey = getRouterParam(event, 'site_key');
    if (siteKey === undefined) return 200;
    const user = await requireUser(event, store).catch(() => undefined);
    if (!user) return 401;
    if (!userMaySee(user, siteKey)) return 403;
    return (await store.sites.get(siteKey)) ? 200 : 404;
  };
  // The same shell whatever the status: the page shows what its reads meet.
  const html = (description: string) => ({ description, contentType: 'text/html' });
  const siteAnswers = { 401: html('Signed out: the page shows the sign-in form'), 403: html('A site this user may not see'), 404: html('No such site') };
  const page = (path: string, summary: string) =>
    defineRoute({
      method: 'GET',
      path,
      tag: 'Dashboard',
      summary,
      auth: 'none',
      responses: {
        200: html('The dashboard (HTML; the page reads the read API)'),
        ...(path.includes(':site_key') ? siteAnswers : {}),
      },
      async handle({ event }) {
        secure(event);
        const body = read('index.html');
        event.res.status = await statusFor(event);
        event.res.headers.set('content-type', 'text/html; charset=utf-8');
        event.res.headers.set('cache-control', 'no-store');
        return new Uint8Array(body);
      },
    });
  return [
    page('/', 'Sign-in, or the sites the user may see with 24 h and 7 d counts'),
    page('/sites/:site_key', "One site: errors, CSP violations, Web Vitals and pages over 24 h, 7 d or 30 d"),
    page('/sites/:site_key/errors/:fingerprint', 'One error group: latest stack, occurrences, pages, browsers'),
    page('/sites/:site_key/setup', 'The script tag, CSP sources, allowed origins, connectivity and integrations'),
    page('/sites/:site_key/alerts', "The site's alert rules: add, remove, send a test; the latest deliveries"),
    page('/docs', 'Set-up guide and the API reference from /api/openapi.json'),
    defineRoute({
      method: 'GET',
      path: '/dashboard/assets/:file',
      tag: 'Dashboard',
      summary: "The dashboard's scripts and styles, by hashed name: immutable for a year",
      auth: 'none',
      responses: { 200: { description: 'JavaScript or CSS', contentType: 'text/javascript' } },
      handle({ event }) {
        secure(event);
        const name = getRouterParam(event, 'file') ?? '';
        const match = ASSET.exec(name);
        if (!match) throw apiError(404, 'not_found', 'no such file');
        const body = read(`assets/${name}`);
        event.res.headers.set('content-type', TYPES[match[1]!]!);
        // The name changes with the content (rollup's [hash]): a cached copy is never stale.
        event.res.headers.set('cache-control', 'public, max-age=31536000, immutable');
        return new Uint8Array(body);
      },
    }),
  ];
};
