import type { Links } from '../core/setupUrls';
import type { apiError } from '../http/apiError';
import { defineRoute } from '../http/route';
import { readSetup } from '../reads/readSetup';
import type { Store } from '../store/contract';
import { SiteSetupSchema } from '../schemas/answers/siteSetupAnswer';
import type { scriptFiles } from './beaconScript';

/**
 * `GET /api/v1/sites/{site_key}/setup` (spec section 1: clients use generated setup URLs, never
 * rewritten by hand; docs/integrations.md, "Where integrations are told to go"): what a site needs to be set up,
 * as the dashboard's setup page shows it: the generated URLs, the beacon's SRI value, the snippet
 * (the early-capture stub, then the script tag carrying that value: docs/early-capture.md) and the
 * script tag alone (core/setupUrls.ts, the one snippet builder), the CSP sources the page needs (the
 * stub's hash among them), the allowed origins, and the site's integrations. `sitebeacon snippet
 * --json` prints the same setup.
 */
export const siteSetupRoutes = ({
  store,
  links,
  beaconFile,
  scripts,
}: {
  store: Store;
  links: Links;
  beaconFile: string;
  scripts: ReturnType<typeof scriptFiles>;
}) => [
  defineRoute({
    method: 'GET',
    path: '/api/v1/sites/:site_key/setup',
    tag: 'Read API',
    summary: "A site's setup: URLs, snippet (early-capture stub and script tag with its SRI hash) and the tag alone, CSP sources, allowed origins, WordPress install, server agents, CSP projects",
    auth: 'siteApiKey',
    responses: { 200: { description: "The site's setup", schema: SiteSetupSchema } },
    async handle({ site }) {
      let integrity: string | undefined;
      try {
        integrity = scripts.load(beaconFile).integrity;
      } catch (error) {
        // An unbuilt beacon still has a setup; the tag then carries no integrity.
        if ((error as ReturnType<typeof apiError>).status != 404) throw error;
      }
      return readSetup(store, site!, { links, integrity });
    },
  }),
];
