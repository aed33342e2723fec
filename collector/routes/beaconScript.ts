import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import type { H3 } from 'h3';
import { apiError } from '../http/apiError';

/**
 * `GET /beacon.js`: the built IIFE. Pages on any origin load it, so it is served with
 * `Access-Control-Allow-Origin: *` (lets `crossorigin` and SRI work) and
 * `Cross-Origin-Resource-Policy: cross-origin` (pages that set COEP can still load it).
 */
export const beaconScriptRoutes = (app: H3, { beaconFile }: { beaconFile: string }) => {
  let cached: { body: Buffer; etag: string } | undefined;
  const load = () => {
    if (!cached) {
      let body: Buffer;
      try {
        body = readFileSync(beaconFile);
      } catch {
        throw apiError(404, 'not_found', 'the beacon is not built; run `npm run build`');
      }
      cached = { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"` };
    }
    return cached;
  };

  app.get('/beacon.js', (event) => {
    const { body, etag } = load();
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
  });
};
