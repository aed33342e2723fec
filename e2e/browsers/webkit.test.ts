// WebKitGTK's MiniBrowser (Debian's `webkit2gtk-driver`) under Xvfb, over classic WebDriver.
import { describeBrowser } from './cases';
import { launchWebKit } from './webkitDriver';

describeBrowser('webkit', launchWebKit, {
  // No largest-contentful-paint, event or layout-shift entries in WebKitGTK 2.50 (collector/fixtures/README.md).
  metrics: ['TTFB', 'FCP'],
});
