import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import type { H3Event } from 'h3';
import { subresourceIntegrity } from '../core/setupUrls';
import { apiError } from '../http/apiError';
import { defineRoute, type Route } from '../http/route';

/**
 * `GET /beacon.js`: the built IIFE, and `GET /beacon.vitals.js`: its second script, web-vitals,
 * which beacon.js loads at idle from beside itself (`beacon.vitals.min.js`, next to `beaconFile`).
 * Pages on any origin load them, so they are served with `Access-Control-Allow-Origin: *` (lets
 * `crossorigin` and SRI work) and `Cross-Origin-Resource-Policy: cross-origin` (pages that set
 * COEP can still load them).
 */
/** A built script as served: its bytes, ETag and SRI value. */
export interface ScriptFile {
  body: Buffer;
  etag: string;
  integrity: string;
}

/**
 * Reads built scripts once and keeps them (a new build is a new release: restart to serve it).
 *
 * @example
 * const scripts = scriptFiles(); scripts.load('dist/beacon.min.js').integrity // 'sha384-…'
 */
export const scriptFiles = () => {
  const cached = new Map<string, ScriptFile>();
  return {
    /** The script, or 404 `not_found` when it is not built. */
    load(file: string): ScriptFile {
      let script = cached.get(file);
      if (!script) {
        let body: Buffer;
        try {
          body = readFileSync(file);
        } catch {
          throw apiError(404, 'not_found', 'the beacon is not built; run `npm run build`');
        }
        script = { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`, integrity: subresourceIntegrity(body) };
        cached.set(file, script);
      }
      return script;
    },
  };
};

export const beaconScriptRoutes = ({ beaconFile, scripts = scriptFiles() }: { beaconFile: string; scripts?: ReturnType<typeof scriptFiles> }): Route[] => {
  const load = (file: string) => scripts.load(file);
  const serve = (file: string) => (event: H3Event) => {
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
  const responses = { 200: { description: 'JavaScript', contentType: 'text/javascript' }, 304: 'Not modified (ETag)' };

  return [
    defineRoute({
      method: 'GET',
      path: '/beacon.js',
      tag: 'Collection',
      summary: 'The beacon script (IIFE), loadable from any origin',
      auth: 'none',
      responses,
      handle: ({ event }) => serve(beaconFile)(event),
    }),
    defineRoute({
      method: 'GET',
      path: '/beacon.vitals.js',
      tag: 'Collection',
      summary: "The beacon's second script (web-vitals), loaded by /beacon.js at idle",
      auth: 'none',
      responses,
      handle: ({ event }) => serve(join(dirname(beaconFile), 'beacon.vitals.min.js'))(event),
    }),
  ];
};
