// WebKitGTK's MiniBrowser (Debian's `webkit2gtk-driver`) under Xvfb, over classic WebDriver.
import { describeBrowser } from './cases';
import { launchWebKit } from './webkitDriver';

const ORIGIN_NULL = "WebKit's own reports carry `Origin: null`, answered 403 origin_not_allowed (issue 12)";

describeBrowser('webkit', launchWebKit, {
  // No largest-contentful-paint, event or layout-shift entries in WebKitGTK 2.50 (collector/fixtures/README.md).
  metrics: ['TTFB', 'FCP'],
  // `both`: only the beacon's copies are stored today, so the count is right by accident.
  knownBugs: { 'report-uri': ORIGIN_NULL, 'report-to': ORIGIN_NULL, both: ORIGIN_NULL },
});
