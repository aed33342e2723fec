// Firefox ESR (Debian's `firefox-esr`), over WebDriver BiDi through puppeteer-core.
import { describeBrowser } from './cases';
import { launchPuppeteer } from './puppeteerDriver';

describeBrowser('firefox', () => launchPuppeteer('firefox'), {
  // Firefox has no layout-shift entries, so no CLS (collector/fixtures/README.md).
  metrics: ['TTFB', 'FCP', 'LCP', 'INP'],
  knownBugs: {
    'report-to': 'Firefox\'s report-to bodies have `"referrer": null` and `"sample": null`, answered 400 invalid_report (issue 12)',
    both: "the beacon's copy and the browser's own report of one violation are stored twice (issue 12)",
  },
});
