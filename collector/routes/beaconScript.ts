import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import type { H3, H3Event } from 'h3';
import { apiError } from '../http/apiError';

/**
 * `GET /beacon.js`: the built IIFE, and `GET /beacon.vitals.js`: its second script, web-vitals,
 * which beacon.js loads at idle from beside itself (`beacon.vitals.min.js`, next to `beaconFile`).
 * Pages on any origin load them, so they are served with `Access-Control-Allow-Origin: *` (lets
 * `crossorigin` and SRI work) and `Cross-Origin-Resource-Policy: cross-origin` (pages that set
 * COEP can still load them).
 */
export const beaconScriptRoutes = (app: H3, { beaconFile }: { beaconFile: string }) => {
  const cached: Record<string, { body: Buffer; etag: string }> = {};
  const load = (file: string) => {
    if (!cached[file]) {
      let body: Buffer;
      try {
        body = readFileSync(file);
      } catch {
        throw apiError(404, 'not_found', 'the beacon is not built; run `npm run build`');
      }
      cached[file] = { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"` };
    }
    return cached[file];
  };

  const script = (file: string) => (event: H3Event) => {
    const { body, etag } = load(file);
    const headers = event.res.headers;
    headers.set('content-type', 'text/javascript; charset=utf-8');
    // Short freshness, long revalidation: a new release reaches pages within the hour.
    headers.set('cache-control', 'public, max-age=3600, stale-while-revalidate=86400');
    headers.set('etag', etag);
    headers.set('access-control-allow-origin', '*');
    headers.set('cross-origin-resource-policy', 'cross-origin');
    headers.set('x-content-type-options', 'nosniff');
    if (event.req.headers.get('if-none-match') == etag) {
      event.res.status = 304;
      return null;
    }
    return new Uint8Array(body);
  };
  app.get('/beacon.js', script(beaconFile));
  app.get('/beacon.vitals.js', script(join(dirname(beaconFile), 'beacon.vitals.min.js')));
};
