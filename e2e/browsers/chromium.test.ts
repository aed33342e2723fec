// Chromium (Debian's, or Playwright's own build), over CDP through puppeteer-core.
import { describeBrowser } from './cases';
import { launchPuppeteer } from './puppeteerDriver';

describeBrowser('chromium', () => launchPuppeteer('chromium'), {
  metrics: ['TTFB', 'FCP', 'LCP', 'INP', 'CLS'],
});
