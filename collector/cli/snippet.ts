import { readFileSync } from 'node:fs';
import { cspSources, siteSetup, subresourceIntegrity } from '../core/setupUrls';
import { BEACON_FILE } from './beaconFile';
import { databaseLocation, LINK_OPTIONS, linksFrom, parseOptions, UsageError, withStore, type CliIO } from './args';
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
export const snippetCommand = async (args: string[], io: CliIO) => {
  const values = parseOptions(args, { site: { type: 'string' }, 'no-stub': { type: 'boolean' }, ...LINK_OPTIONS });
  const siteKey = values.site;
  if (!siteKey) throw new UsageError('snippet needs --site SITE_KEY');
  const site = await withStore(databaseLocation(values, io), (store) => store.sites.get(siteKey), { readOnly: true });
  if (!site) throw new Error(`no site has the key "${siteKey}"`);
  const setup = siteSetup(linksFrom(values, io), site, beaconIntegrity());
  if (values.json) {
    io.out(JSON.stringify(setup));
    return;
  }
  const plain = values['no-stub'] === true;
  io.out(
    pasteText(
      `Paste into every page of ${site.allowed_origins.join(', ') || 'the site'}:`,
      plain ? setup.snippet_without_stub : setup.snippet,
      plain ? cspSources(setup, { stub: false }) : setup.csp_sources,
    ),
  );
};
