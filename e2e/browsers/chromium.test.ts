// Chromium (Debian's, or Playwright's own build), over CDP through puppeteer-core.
import { describeBrowser } from './cases';
import { launchPuppeteer } from './puppeteerDriver';

describeBrowser('chromium', () => launchPuppeteer('chromium'), {
  metrics: ['TTFB', 'FCP', 'LCP', 'INP', 'CLS'],
  knownBugs: { both: "the beacon's copy and the browser's own report of one violation are stored twice (issue 12)" },
});
