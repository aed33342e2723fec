import { readFileSync } from 'node:fs';
import { siteSetup, subresourceIntegrity } from '../core/setupUrls';
import { BEACON_FILE } from './beaconFile';
import { databaseLocation, LINK_OPTIONS, linksFrom, parseOptions, UsageError, withStore, type CliIO } from './args';

/** The beacon this CLI ships (beside it in dist/), whose SRI value the tag carries; none when not built. */
const beaconIntegrity = () => {
  try {
    return subresourceIntegrity(readFileSync(BEACON_FILE));
  } catch {
    return undefined;
  }
};

/**
 * `sitebeacon snippet --site SITE_KEY [--public-url URL] [--ingest-url URL]`: the site's script tag
 * with its SRI hash, and the CSP sources its pages need; `--json` prints the whole setup, as
 * `GET /api/v1/sites/{site_key}/setup` answers it.
 */
export const snippetCommand = async (args: string[], io: CliIO) => {
  const values = parseOptions(args, { site: { type: 'string' }, ...LINK_OPTIONS });
  const siteKey = values.site;
  if (!siteKey) throw new UsageError('snippet needs --site SITE_KEY');
  const site = await withStore(databaseLocation(values, io), (store) => store.sites.get(siteKey));
  if (!site) throw new Error(`no site has the key "${siteKey}"`);
  const setup = siteSetup(linksFrom(values, io), site, beaconIntegrity());
  if (values.json) {
    io.out(JSON.stringify(setup));
    return;
  }
  const sources = Object.entries(setup.csp_sources).map(([directive, list]) => `  ${directive} ${list.join(' ')}`);
  io.out(`Paste into every page of ${site.allowed_origins.join(', ') || 'the site'}:\n  ${setup.snippet}\n\nIf the pages send a Content-Security-Policy, it must allow:\n${sources.join('\n')}`);
};
