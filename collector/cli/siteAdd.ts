import { newSiteKey } from '../core/keys';
import { cspSources, setupUrls, snippet } from '../core/setupUrls';
import { databaseLocation, LINK_OPTIONS, linksFrom, parseOptions, UsageError, withStore, type CliIO } from './args';
import { pasteText } from './pasteText';

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
export const siteAdd = async (args: string[], io: CliIO) => {
  const values = parseOptions(args, {
    origin: { type: 'string', multiple: true },
    name: { type: 'string' },
    ...LINK_OPTIONS,
  });
  const origins = (values.origin || []).map(toOrigin);
  if (!origins.length) throw new UsageError('site add needs at least one --origin URL');
  const siteKey = newSiteKey();
  const site = await withStore(databaseLocation(values, io), (store) =>
    store.sites.create({ site_key: siteKey, name: values.name || siteKey, allowed_origins: origins }),
  );
  const urls = setupUrls(linksFrom(values, io));
  const tag = snippet(urls, site.site_key);
  const sources = cspSources(urls);
  if (values.json) {
    io.out(
      JSON.stringify({
        site_key: site.site_key,
        name: site.name,
        allowed_origins: site.allowed_origins,
        snippet: tag,
        snippet_without_stub: snippet(urls, site.site_key, { stub: false }),
        csp_sources: sources,
      }),
    );
  } else {
    io.out(
      `Created site "${site.name}"\n  site key:        ${site.site_key}\n  allowed origins: ${origins.join(', ')}\n\n` +
        pasteText('Paste into every page:', tag, sources),
    );
  }
};
