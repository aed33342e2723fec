import { newSiteKey } from '../core/keys';
import { databaseLocation, UsageError, withStore } from './args';
import { DATABASE_FLAGS, LINK_FLAGS } from './commonFlags';
import { defineCommand } from './defineCommand';
import { printSiteSnippet } from './printSiteSnippet';

const toOrigin = (value: string) => {
  if (!URL.canParse(value)) throw new UsageError(`--origin ${value} is not a URL; write it like https://shop.example`);
  const url = new URL(value);
  if (url.protocol != 'http:' && url.protocol != 'https:') throw new UsageError(`--origin ${value} is not http(s)`);
  return url.origin;
};

/**
 * `sitebeacon site add --origin URL [--origin URL...] [--name NAME]`: a new site, its key, its
 * snippet (the early-capture stub and the script tag: docs/early-capture.md) and the CSP sources
 * its pages need; `--json` adds the script tag alone, `snippet_without_stub`.
 */
export const siteAdd = defineCommand({
  name: ['site', 'add'],
  summary: 'create a site; print its key, its snippet and the CSP sources its pages need',
  help:
    'creates a site; prints its key, the snippet (the early-capture stub, then the script tag, served and collected from `--ingest-url` when given) ' +
    "and the CSP sources its pages need, the stub's `'sha256-…'` among them " +
    '(`--json`: `{"site_key", "name", "allowed_origins", "snippet", "snippet_without_stub", "csp_sources"}`)',
  flags: {
    origin: { type: 'string', multiple: true, required: true, value: 'URL', help: 'an origin whose pages may send reports (repeat it for each)' },
    name: { type: 'string', value: 'NAME', help: "the site's name in the dashboard (default: its key)" },
    ...LINK_FLAGS,
    ...DATABASE_FLAGS,
  },
  run: async ({ values }, io) => {
    const origins = values.origin!.map(toOrigin);
    const siteKey = newSiteKey();
    const site = await withStore(databaseLocation(values, io), (store) =>
      store.sites.create({ site_key: siteKey, name: values.name || siteKey, allowed_origins: origins }),
    );
    printSiteSnippet(io, values, site, {
      fields: { site_key: site.site_key, name: site.name, allowed_origins: site.allowed_origins },
      said: `Created site "${site.name}"\n  site key:        ${site.site_key}\n  allowed origins: ${origins.join(', ')}`,
      heading: 'Paste into every page:',
    });
  },
});
