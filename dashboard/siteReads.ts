import { apiPath } from '../collector/routes/apiPath';
import { sinceOf } from './format';
import { issuesPath, issueViewOf } from './issueQuery';
import { vitalsDeviceOf } from './vitalsDevice';

/**
 * The read-API paths of a site page, by what each shows, in the order the boot script starts them
 * (boot.ts): what is above the fold first (the site's name, the activity chart, the issues),
 * since the collector answers them in turn.
 */
export type SiteReads = ReturnType<typeof readsOf>;

const readsOf = (siteKey: string, search: string) => {
  const site = { site_key: siteKey };
  const view = issueViewOf(search);
  const since = sinceOf(view.range);
  // The device switch's (vitalsDevice.ts): the Web Vitals and the pages of one kind of device.
  const device = vitalsDeviceOf(search);
  return {
    sites: apiPath('/api/v1/sites', {}),
    daily: apiPath('/api/v1/sites/:site_key/daily', site, { since, p75: false, bots: view.includeBots ? 'include' : undefined }),
    issues: issuesPath(siteKey, view),
    csp: apiPath('/api/v1/sites/:site_key/csp-groups', site, { since, limit: 50 }),
    vitals: apiPath('/api/v1/sites/:site_key/vitals', site, { since, device }),
    pages: apiPath('/api/v1/sites/:site_key/pages', site, { since, device }),
  };
};

const made = new Map<string, SiteReads>();

/**
 * What `/sites/{site_key}` reads for its `?query` (the range, and the issues list's tab, search,
 * filters, sort and page: issueQuery.ts): the same paths (one `since`) for the boot script,
 * which starts them early, and for the page, which takes their answers (early.ts). The daily
 * series without its p75 (`/vitals` has it, with the counts, from one read of the samples), and
 * with bots' errors as the issues list counts them (docs/dashboard.md, "Issues").
 *
 * @example
 * siteReads('3f2a', '?range=7d').vitals // '/api/v1/sites/3f2a/vitals?since=2026-06-03T12%3A00%3A00.000Z'
 */
export const siteReads = (siteKey: string, search: string): SiteReads => {
  const key = `${siteKey}\n${search}`;
  let reads = made.get(key);
  if (!reads) {
    reads = readsOf(siteKey, search);
    made.set(key, reads);
  }
  return reads;
};
