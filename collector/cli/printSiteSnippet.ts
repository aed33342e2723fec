import { siteSetup } from '../core/setupUrls';
import { linksFrom, type CliIO } from './args';
import { pasteText } from './pasteText';

/**
 * What `site add` and `site rotate-key` print once the site has its key: with `--json`, `fields`
 * and the site's snippets and CSP sources (`snippet`, `snippet_without_stub`, `csp_sources`, as
 * the setup API names them); else `said`, then the snippet to paste under `heading` and the CSP
 * sources its pages need (pasteText.ts). The tag carries no SRI hash: `sitebeacon snippet` prints that one.
 *
 * @example
 * printSiteSnippet(io, values, site, {
 *   fields: { site_key: site.site_key, name: site.name },
 *   said: `Created site "${site.name}"`,
 *   heading: 'Paste into every page:',
 * });
 */
export const printSiteSnippet = (
  io: CliIO,
  values: Parameters<typeof linksFrom>[0] & { json: boolean },
  site: { site_key: string; allowed_origins: string[] },
  { fields, said, heading }: { fields: object; said: string; heading: string },
) => {
  const { snippet, snippet_without_stub, csp_sources } = siteSetup(linksFrom(values), site);
  io.out(values.json ? JSON.stringify({ ...fields, snippet, snippet_without_stub, csp_sources }) : `${said}\n\n${pasteText(heading, snippet, csp_sources)}`);
};
