import { segment, sinceOf, type Range } from './format';

/** The read-API paths of a site page, by what each shows. */
export interface SiteReads {
  summary: string;
  groups: string;
  daily: string;
  pages: string;
  sites: string;
}

const made = new Map<string, SiteReads>();

/**
 * What `/sites/{site_key}` reads for `range`: the same paths (one `since`) for the boot script,
 * which starts them early, and for the page, which takes their answers (early.ts).
 *
 * @example
 * siteReads('3f2a', '7d').summary // '/api/v1/sites/3f2a/summary?since=2026-06-03T12:00:00.000Z'
 */
export const siteReads = (siteKey: string, range: Range): SiteReads => {
  const key = `${siteKey}\n${range}`;
  let reads = made.get(key);
  if (!reads) {
    const base = `/api/v1/sites/${segment(siteKey)}`;
    const since = sinceOf(range);
    reads = {
      summary: `${base}/summary?since=${since}`,
      groups: `${base}/error-groups?since=${since}`,
      daily: `${base}/daily?since=${since}`,
      pages: `${base}/pages?since=${since}`,
      sites: '/api/v1/sites',
    };
    made.set(key, reads);
  }
  return reads;
};
