import { segment, sinceOf, type Range } from './format';

/**
 * The read-API paths of a site page, by what each shows, in the order the boot script starts them
 * (boot.ts): what is above the fold first (the site's name, the activity chart, the error groups),
 * since the collector answers them in turn.
 */
export interface SiteReads {
  sites: string;
  daily: string;
  groups: string;
  csp: string;
  vitals: string;
  pages: string;
}

const made = new Map<string, SiteReads>();

/**
 * What `/sites/{site_key}` reads for `range`: the same paths (one `since`) for the boot script,
 * which starts them early, and for the page, which takes their answers (early.ts). The daily
 * series without its p75 (`/vitals` has it, with the counts, from one read of the samples).
 *
 * @example
 * siteReads('3f2a', '7d').vitals // '/api/v1/sites/3f2a/vitals?since=2026-06-03T12:00:00.000Z'
 */
export const siteReads = (siteKey: string, range: Range): SiteReads => {
  const key = `${siteKey}\n${range}`;
  let reads = made.get(key);
  if (!reads) {
    const base = `/api/v1/sites/${segment(siteKey)}`;
    const since = sinceOf(range);
    reads = {
      sites: '/api/v1/sites',
      daily: `${base}/daily?since=${since}&p75=false`,
      groups: `${base}/error-groups?since=${since}`,
      csp: `${base}/csp-groups?since=${since}&limit=50`,
      vitals: `${base}/vitals?since=${since}`,
      pages: `${base}/pages?since=${since}`,
    };
    made.set(key, reads);
  }
  return reads;
};
