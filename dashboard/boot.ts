// The dashboard's entry (rollup.config.mjs): a few hundred bytes that start the current page's
// reads (early.ts), then load the app (main.tsx, with Preact and uPlot), which index.html also
// preloads. The read API answers while the app is fetched and compiled, not after.
import { apiPath } from '../collector/routes/apiPath';
import { readEarly } from './early';
import { issuePaths, issueViewOf } from './issueQuery';
import { route } from './route';
import { siteReads } from './siteReads';

const current = route(location.pathname);
if (current.page != 'docs') readEarly(apiPath('/api/v1/session', {}));
if (current.page == 'site') {
  const { sites, daily, issues, csp, vitals, pages } = siteReads(current.siteKey, location.search);
  const firstScreen = [sites, daily, issues].map((path) => readEarly(path));
  for (const path of [csp, vitals, pages]) readEarly(path, firstScreen);
}
if (current.page == 'error') {
  // The issue and its latest events first; its breakdowns, below the fold, once the issue is answered (IssuePage.tsx).
  const { issue, events, tags } = issuePaths(current.siteKey, current.fingerprint, issueViewOf(location.search));
  const issueRead = readEarly(issue);
  readEarly(events);
  readEarly(tags, [issueRead]);
}
void import('./main');
