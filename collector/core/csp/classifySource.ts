/** What kind of source a suggestion would add (docs/csp-reports.md, "Evidence per source"). */
export type SourceClass = 'own' | 'third_party' | 'likely_injected';

/** Below this share of the site's visitors, a source is likely injected (an extension, an ad or malware injector). */
export const INJECTED_SHARE = 0.05;
/** Fewer visitors than this and shares say nothing: no source is called injected. */
export const MIN_VISITORS_TO_JUDGE = 20;
/** At most this many visitors asked for a likely injected source: few clients, not a page few visit. */
export const INJECTED_MAX_VISITORS = 3;

/** The last two labels of a host: what a site's own subdomains share (`cdn.shop.example` and `www.shop.example`). */
const parentOf = (host: string) => host.toLowerCase().split('.').slice(-2).join('.');
const hostOf = (source: string) => {
  const match = /^(?:[a-z][a-z0-9+.-]*:\/\/)?([^/:]+)/i.exec(source);
  return match ? match[1]! : '';
};

/**
 * A source's class: `own` for the page's origin (`'self'`) or a host of the same parent domain as
 * one of the site's allowed origins; `likely_injected` when, of a site with at least
 * MIN_VISITORS_TO_JUDGE visitors, less than INJECTED_SHARE of them and at most
 * INJECTED_MAX_VISITORS clients asked for it (what a browser extension or an injector on a few
 * machines looks like; a third party on a page few people visit still has its many visitors);
 * `third_party` otherwise.
 *
 * @example
 * classifySource({ source: 'https://cdn.shop.example', siteOrigins: ['https://www.shop.example'], visitors: 1, visitorsShare: 0.002, siteVisitors: 500 }) // 'own'
 * classifySource({ source: 'https://inject.example', siteOrigins: ['https://www.shop.example'], visitors: 1, visitorsShare: 0.002, siteVisitors: 500 }) // 'likely_injected'
 */
export const classifySource = ({
  source,
  siteOrigins,
  visitors,
  visitorsShare,
  siteVisitors,
}: {
  source: string;
  siteOrigins: readonly string[];
  visitors: number;
  visitorsShare: number;
  siteVisitors: number;
}): SourceClass => {
  if (source.toLowerCase() == "'self'") return 'own';
  const host = hostOf(source);
  if (host && siteOrigins.some((origin) => parentOf(hostOf(origin)) == parentOf(host))) return 'own';
  if (siteVisitors >= MIN_VISITORS_TO_JUDGE && visitorsShare < INJECTED_SHARE && visitors <= INJECTED_MAX_VISITORS) return 'likely_injected';
  return 'third_party';
};
