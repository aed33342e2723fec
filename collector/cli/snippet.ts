import { readFileSync } from 'node:fs';
import { cspSources, siteSetup, subresourceIntegrity } from '../core/setupUrls';
import { BEACON_FILE } from './beaconFile';
import { databaseLocation, linksFrom, withStore } from './args';
import { DATABASE_FLAGS, LINK_FLAGS } from './commonFlags';
import { defineCommand } from './defineCommand';
import { pasteText } from './pasteText';

/** The beacon this CLI ships (beside it in dist/), whose SRI value the tag carries; none when not built. */
const beaconIntegrity = () => {
  try {
    return subresourceIntegrity(readFileSync(BEACON_FILE));
  } catch {
    return undefined;
  }
};

/**
 * `sitebeacon snippet --site SITE_KEY [--no-stub] [--public-url URL] [--ingest-url URL]`: the site's
 * snippet (the early-capture stub, then the script tag with its SRI hash: docs/early-capture.md) and
 * the CSP sources its pages need; `--no-stub`, the script tag alone and its sources without the
 * stub's hash. `--json` prints the whole setup, both snippets included, as
 * `GET /api/v1/sites/{site_key}/setup` answers it.
 */
export const snippetCommand = defineCommand({
  name: ['snippet'],
  summary: "the site's snippet (stub and script tag with its SRI hash) and the CSP sources its pages need",
  help:
    "the site's snippet: the early-capture stub, then the script tag with the SRI hash of the beacon this version serves; and the CSP sources its pages need, the stub's `'sha256-…'` among them. " +
    '`--no-stub`: the script tag alone, and its sources without the hash (see [Adding the beacon to a site](#adding-the-beacon-to-a-site)). ' +
    '`--json`: the whole setup, as the setup API answers it (`snippet`, `snippet_without_stub`, `csp_sources`, …). ' +
    "The tag's hash changes with each release of the beacon: paste it again after an upgrade, or use the tag without `integrity` from `site add`. " +
    "`beacon.js` loads `beacon.vitals.js` from beside itself at idle; that second script is not covered by the tag's hash. Read-only: never migrates",
  flags: {
    site: { type: 'string', value: 'SITE_KEY', required: true, help: 'the site' },
    'no-stub': { type: 'boolean', help: 'the script tag alone, and its CSP sources without the stub\'s hash' },
    ...LINK_FLAGS,
    ...DATABASE_FLAGS,
  },
  run: async ({ values }, io) => {
    const siteKey = values.site!;
    const site = await withStore(databaseLocation(values, io), (store) => store.sites.get(siteKey), { readOnly: true });
    if (!site) throw new Error(`no site has the key "${siteKey}"`);
    const setup = siteSetup(linksFrom(values), site, beaconIntegrity());
    if (values.json) {
      io.out(JSON.stringify(setup));
      return;
    }
    const plain = values['no-stub'];
    io.out(
      pasteText(
        `Paste into every page of ${site.allowed_origins.join(', ') || 'the site'}:`,
        plain ? setup.snippet_without_stub : setup.snippet,
        plain ? cspSources(setup, { stub: false }) : setup.csp_sources,
      ),
    );
  },
});
