// Firefox ESR (Debian's `firefox-esr`), over WebDriver BiDi through puppeteer-core.
import { describeBrowser } from './cases';
import { launchPuppeteer } from './puppeteerDriver';

describeBrowser('firefox', () => launchPuppeteer('firefox'), {
  // Firefox has no layout-shift entries, so no CLS (collector/fixtures/README.md).
  metrics: ['TTFB', 'FCP', 'LCP', 'INP'],
});
