import { fileURLToPath } from 'node:url';
import { fingerprintOf } from '../collector/core/fingerprint';
import { atBothWidths, BROWSER_USER_AGENT, signInWithForm } from './dashboardKit';
import { expect, test, type Collector } from './fixtures';

// The site page's Activity over 24 hours, the issues' bots switch, a failed load a CSP violation
// explains, and the issue page's early reads (docs/dashboard.md; docs/issues.md, "Bots" and "A resource a CSP blocked").
test.describe.configure({ timeout: 150_000 });

const SHOTS = fileURLToPath(new URL('../test-results/dashboard-activity/', import.meta.url));
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const CART = 'https://shop.example/cart';
const IMAGE = { error_type: 'resource_error', error_message: 'img failed to load', page_url: CART, source_url: 'https://cdn.example.net/x.png', session_id: 'view-1' };

/** POSTs one request's reports as a browser with `userAgent` sends them, and checks they were accepted. */
const send = async (collector: Collector, path: string, userAgent: string, body: unknown) => {
  const response = await fetch(`${collector.url}/api/${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'user-agent': userAgent }, body: JSON.stringify(body) });
  expect(response.status, await response.clone().text()).toBeLessThan(300);
};

test('24 hours hourly beside the previous 24; bots left out counted and included by a switch kept in the URL; a failed load a CSP blocked linked; the issue page reads early', async ({ page, collector }) => {
  const shop = await collector.addSite('https://shop.example');
  const password = await collector.addUser('owner@shop.example');
  await send(collector, `error-reports/${shop}`, BROWSER_USER_AGENT, [
    { error_type: 'javascript_error', error_name: 'TypeError', error_message: 'checkout failed', page_url: CART, session_id: 'view-1' },
    IMAGE,
  ]);
  // The browser's own report of the blocked image (report-uri), as Firefox sends it (collector/fixtures/firefox-esr-153).
  await send(collector, `csp-reports/${shop}`, BROWSER_USER_AGENT, {
    'csp-report': { 'document-uri': CART, 'effective-directive': 'img-src', 'violated-directive': 'img-src', 'blocked-uri': IMAGE.source_url, disposition: 'enforce', 'original-policy': "img-src 'self'" },
  });
  await send(collector, `error-reports/${shop}`, GOOGLEBOT, [
    { error_type: 'javascript_error', error_name: 'ReferenceError', error_message: 'gtag is not defined', page_url: CART },
    { error_type: 'javascript_error', error_name: 'ReferenceError', error_message: 'gtag is not defined', page_url: `${CART}?step=2` },
  ]);

  await signInWithForm(page, collector.url, 'owner@shop.example', password);
  // The sites list: each last-24-hours figure with its change on the 24 hours before (none then: new).
  // The owner's sites, not the collector's own (listed apart, when this user may see them).
  const ownSites = page.getByTestId('own-sites');
  await expect(ownSites.getByTestId('errors-24h-change')).toHaveText('(new on the previous 24 hours)');
  await expect(ownSites.getByTestId('page_views-24h-change')).toHaveText('(no change on the previous 24 hours)');
  await page.goto(`${collector.url}/sites/${shop}?range=24h`);
  // The totals, each beside the previous 24 hours (nothing then: this site is new). The site's
  // activity counts what the issues list counts: bots' errors left out (docs/issues.md, "Bots"),
  // and the image a CSP violation blocked counted once, as the violation ("Counted once").
  await expect(page.getByTestId('total-errors')).toContainText('1 error');
  await expect(page.getByTestId('previous-errors')).toHaveText('none in the previous 24 hours');
  await expect(page.getByTestId('total-csp')).toContainText('1 CSP violation');
  await expect(page.getByTestId('total-page_views')).toContainText('0 page views');
  await expect(page.getByTestId('previous-page_views')).toHaveText('none in the previous 24 hours either');
  // Hourly points, the last one still filling.
  const chart = page.locator('section[aria-labelledby="activity-title"] .chart');
  await expect(chart).toHaveAttribute('aria-label', /^Per hour \(UTC\): .*: 1 errors, 1 CSP violations, 0 page views so far$/);
  expect((await chart.getAttribute('aria-label'))!.split('; ').length).toBeGreaterThanOrEqual(24);
  await expect(page.locator('.legend')).toContainText('this hour, still filling');
  // Bots left out, and said so; the failed image marked with the violation that explains it.
  await expect(page.getByTestId('bots-not-counted')).toHaveText('2 reports from bots not counted');
  await expect(page.getByText('ReferenceError: gtag is not defined')).toHaveCount(0);
  const imageRow = page.locator('tr', { hasText: 'Failed to load https://cdn.example.net/x.png' });
  await expect(imageRow.getByTestId('badge-csp')).toHaveText('Blocked by CSP: img-src');
  await atBothWidths(page, SHOTS, 'site-24h');

  await page.getByLabel('Include bots').check();
  await expect(page).toHaveURL(/[?&]bots=include/);
  await expect(page.getByRole('link', { name: 'ReferenceError: gtag is not defined' })).toBeVisible();
  await expect(page.getByLabel('Include bots')).toBeChecked();
  await expect(page.getByTestId('bots-not-counted')).toHaveCount(0);
  // Activity with them: the bots' two errors; the blocked image still counted once, as its violation.
  await expect(page.getByTestId('total-errors')).toContainText('3 errors');
  await expect(page.getByTestId('total-csp')).toContainText('1 CSP violation');
  await atBothWidths(page, SHOTS, 'site-bots-included');
  // The bots' issue keeps bots=include on its page, and a reload keeps the switch on.
  await page.getByRole('link', { name: 'ReferenceError: gtag is not defined' }).click();
  await expect(page).toHaveURL(/[?&]bots=include/);
  await expect(page.getByLabel('Include bots')).toBeChecked();
  await expect(page.getByTestId('count')).toHaveText('2');
  await page.getByLabel('Include bots').uncheck();
  await expect(page.getByTestId('count')).toHaveText('0');
  await expect(page.getByTestId('bots-not-counted')).toHaveText('2 reports from bots not counted');

  // The image's page: its reads start from the boot script, before the app's code has arrived, each once.
  const fingerprint = fingerprintOf(IMAGE);
  const reads: string[] = [];
  page.on('request', (request) => reads.push(new URL(request.url()).pathname));
  // The app's code held back a moment, as on a slow network: the reads must not wait for it.
  await page.route(/\/main-[\w-]+\.js$/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 700));
    await route.continue();
  });
  await page.goto(`${collector.url}/sites/${shop}/errors/${fingerprint}?range=24h`);
  await expect(page.getByTestId('csp-violation')).toContainText('img-src');
  await expect(page.getByTestId('csp-violation')).toContainText(IMAGE.source_url);
  await expect(page.getByRole('heading', { name: 'Breakdowns' })).toBeVisible();
  await expect(page.locator('table.events tbody tr').first()).toBeVisible();
  const issuePath = `/api/v1/sites/${shop}/issues/${fingerprint}`;
  expect(reads.filter((path) => path == issuePath)).toHaveLength(1);
  expect(reads.filter((path) => path == `${issuePath}/events`)).toHaveLength(1);
  expect(reads.filter((path) => path == `${issuePath}/tags`)).toHaveLength(1);
  const timing = await page.evaluate((path) => {
    const entries = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
    const read = entries.find((entry) => new URL(entry.name).pathname == path);
    const app = entries.find((entry) => /\/main-[\w-]+\.js$/.test(new URL(entry.name).pathname));
    return { readStart: read?.startTime, appEnd: app?.responseEnd };
  }, issuePath);
  expect(timing.readStart, 'the issue read').toBeDefined();
  expect(timing.readStart!).toBeLessThan(timing.appEnd!);
  await atBothWidths(page, SHOTS, 'issue-csp');
});
