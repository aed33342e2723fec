import { siteSetup, type Links } from '../core/setupUrls';
import { apiError } from '../http/apiError';
import { defineRoute, type Route } from '../http/route';
import type { scriptFiles } from './beaconScript';

/**
 * `GET /api/v1/sites/{site_key}/setup` (spec section 1: clients use generated setup URLs, never
 * rewritten by hand): the API base, ingest and beacon URLs, the beacon's SRI value and the script tag
 * carrying it, the CSP sources a page needs, and the allowed origins. `sitebeacon snippet` prints the same.
 */
export const siteSetupRoutes = ({ links, beaconFile, scripts }: { links: Links; beaconFile: string; scripts: ReturnType<typeof scriptFiles> }): Route[] => [
  defineRoute({
    method: 'GET',
    path: '/api/v1/sites/:site_key/setup',
    tag: 'Read API',
    summary: "The site's setup: generated URLs, the script tag with its SRI hash, the CSP sources its pages need",
    auth: 'siteApiKey',
    responses: { 200: 'Setup' },
    handle: ({ site }) => {
      let integrity: string | undefined;
      try {
        integrity = scripts.load(beaconFile).integrity;
      } catch (error) {
        // An unbuilt beacon still has a setup; the tag then carries no integrity.
        if ((error as ReturnType<typeof apiError>).status != 404) throw error;
      }
      return siteSetup(links, site!, integrity);
    },
  }),
];
