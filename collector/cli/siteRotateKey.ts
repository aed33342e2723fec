import { newSiteKey } from '../core/keys';
import { DEFAULT_SITE_KEY } from '../core/records';
import { databaseLocation, withStore } from './args';
import { DATABASE_FLAGS, LINK_FLAGS } from './commonFlags';
import { defineCommand } from './defineCommand';
import { printSiteSnippet } from './printSiteSnippet';

/**
 * `sitebeacon site rotate-key --site SITE_KEY`: a new public key for the site, when the old one is
 * abused (a flood of forged reports under it). Everything stored moves to the new key, the old one
 * answers 404 `unknown_site` from the next request on (other collectors sharing a PostgreSQL
 * database: once their 5 s site cache expires), and the pages need the new snippet, printed here
 * with the CSP sources it needs (the stub's hash is the same for every site: docs/early-capture.md).
 */
export const siteRotateKey = defineCommand({
  name: ['site', 'rotate-key'],
  summary: 'a new public key for the site; prints it and the new snippet; the old key is refused',
  help:
    'a new public key for the site, when the old one is abused; everything stored moves to it, the old key answers 404 `unknown_site` from the next request on; ' +
    'prints the new key, the snippet to deploy and its CSP sources (`--json`: `{"site_key", "previous_site_key", "name", "snippet", "snippet_without_stub", "csp_sources"}`)',
  flags: {
    site: { type: 'string', value: 'SITE_KEY', required: true, help: 'the site whose key to replace' },
    ...LINK_FLAGS,
    ...DATABASE_FLAGS,
  },
  run: async ({ values }, io) => {
    const siteKey = values.site!;
    // The unkeyed endpoints (spec section 4) store under the default site by its fixed key.
    if (siteKey == DEFAULT_SITE_KEY) throw new Error(`the default site's key is fixed: the spec's unkeyed endpoints store under "${DEFAULT_SITE_KEY}"`);
    const site = await withStore(databaseLocation(values, io), (store) => store.sites.rotateKey(siteKey, newSiteKey()));
    if (!site) throw new Error(`no site has the key "${siteKey}"`);
    printSiteSnippet(io, values, site, {
      fields: { site_key: site.site_key, previous_site_key: siteKey, name: site.name },
      said: `Site "${site.name}" has a new key; "${siteKey}" is refused from the next request on.\n  site key: ${site.site_key}`,
      heading: 'Replace the snippet in every page with:',
    });
  },
});
