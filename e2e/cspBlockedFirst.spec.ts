// Blocked first (docs/csp-reports.md): real Chromium pages, one under a report-only policy and one
// under an enforced policy, report to the collector; the site page lists what the enforced policy
// blocked in "Blocked (enforced)", above what the report-only one would have blocked.
import { atBothWidths, SCREENSHOTS, signInWithForm } from './dashboardKit';
import { expect, test } from './fixtures';

const page = (images: string[]) => `<!doctype html><title>shop</title>
<script>window.violations = []; document.addEventListener('securitypolicyviolation', (event) => violations.push(event.disposition + ' ' + event.blockedURI));</script>
${images.map((src) => `<img src="${src}" alt="">`).join('\n')}`;

test('an enforced block is listed first on the site page, apart from the report-only noise around it', async ({ page: browser, pages, collector }) => {
  test.setTimeout(120_000);
  const siteKey = await collector.addSite(pages.origin);
  const password = await collector.addUser('owner@shop.example');
  const policy = `default-src 'self'; script-src 'self' 'unsafe-inline'; report-uri ${collector.origin}/api/csp-reports/${siteKey}`;
  // The home page: report-only, three third-party images it would block (the noise).
  pages.route('/', page(['https://ads.example.org/1.gif', 'https://ads.example.org/2.gif', 'https://ads.example.org/3.gif']), {
    'content-security-policy-report-only': policy,
  });
  // The checkout: enforced, the payment provider's image blocked once.
  pages.route('/checkout', page(['https://pay.example.net/badge.gif']), { 'content-security-policy': policy });

  await browser.goto(`${pages.origin}/`);
  await expect.poll(() => browser.evaluate(() => (window as any).violations.length)).toBe(3);
  await browser.goto(`${pages.origin}/checkout`);
  await expect.poll(() => browser.evaluate(() => (window as any).violations)).toEqual(['enforce https://pay.example.net/badge.gif']);
  await expect.poll(() => collector.exported(siteKey, 'csp'), { timeout: 10_000 }).toHaveLength(4);
  const stored = await collector.exported(siteKey, 'csp');
  expect(stored.map((report) => report.disposition).sort()).toEqual(['enforce', 'report', 'report', 'report']);

  await signInWithForm(browser, collector.url, 'owner@shop.example', password);
  await browser.goto(`${collector.url}/sites/${siteKey}`);
  const csp = browser.getByTestId('csp-groups');
  await expect(csp.getByRole('heading')).toHaveText(['Blocked (enforced)', 'Would be blocked (report-only)']);
  const enforced = browser.getByTestId('csp-enforced');
  await expect(enforced.getByRole('row')).toHaveCount(2);
  await expect(enforced.getByRole('row').nth(1)).toContainText('img-src');
  await expect(enforced.getByRole('row').nth(1)).toContainText('pay.example.net');
  await expect(enforced.getByRole('row').nth(1).getByRole('cell').last()).toHaveText('1');
  const reportOnly = browser.getByTestId('csp-report-only');
  await expect(reportOnly.getByRole('row')).toHaveCount(2);
  await expect(reportOnly.getByRole('row').nth(1)).toContainText('ads.example.org');
  await expect(reportOnly.getByRole('row').nth(1).getByRole('cell').last()).toHaveText('3');
  // The enforced table comes first in the page, whichever has more reports.
  const [enforcedTop, reportTop] = [await enforced.boundingBox(), await reportOnly.boundingBox()];
  expect(enforcedTop!.y).toBeLessThan(reportTop!.y);
  await atBothWidths(browser, `${SCREENSHOTS}csp/`, 'blocked-first');
});
