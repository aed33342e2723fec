import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportRecords, spawnCollector } from '../collector/testing/spawnCollector';
import { BROWSER_USER_AGENT } from './dashboardKit';
import { beaconTag, expect, test } from './fixtures';

test('a thrown error travels from a page on another origin into the collector store, once', async ({
  page,
  pages,
  collector,
}) => {
  const siteKey = await collector.addSite(pages.origin);
  pages.route(
    '/cart',
    `<!doctype html><title>cart</title>${beaconTag(collector, siteKey)}
     <button id="checkout">Checkout</button><script src="/checkout.js" defer></script>`,
  );
  await page.goto(`${pages.origin}/cart?step=2#review`);
  await page.waitForFunction(() => 'sitebeacon' in window);

  await page.click('#checkout');

  await expect.poll(() => collector.exported(siteKey, 'errors'), { timeout: 10_000 }).toHaveLength(1);
  // Leaving the page flushes anything still queued: the error must not arrive a second time.
  await page.goto('about:blank');
  await page.waitForTimeout(1500);
  const stored = await collector.exported(siteKey, 'errors');
  expect(stored).toHaveLength(1);
  expect(stored[0]).toMatchObject({
    site_key: siteKey,
    error_type: 'javascript_error',
    error_message: 'cart is empty',
    error_name: 'TypeError',
    // The fragment never leaves the page; the query does.
    page_url: `${pages.origin}/cart?step=2`,
    source_url: `${pages.origin}/checkout.js`,
    line: 3,
  });
  expect(stored[0]!.stack).toContain('at checkout');
  expect(stored[0]!.stack).toContain(`${pages.origin}/checkout.js:3:`);
  expect(stored[0]!.user_agent).toContain('Chrome');
});

test('a browser on an origin the site does not allow stores nothing', async ({ page, pages, collector }) => {
  const siteKey = await collector.addSite('https://shop.example');
  pages.route(
    '/cart',
    `<!doctype html>${beaconTag(collector, siteKey)}<button id="checkout">Checkout</button><script src="/checkout.js" defer></script>`,
  );
  const pageErrors: Error[] = [];
  page.on('pageerror', (error) => pageErrors.push(error));
  await page.goto(`${pages.origin}/cart`);
  await page.waitForFunction(() => 'sitebeacon' in window);
  await page.click('#checkout');
  await page.waitForTimeout(2000);
  expect(await collector.exported(siteKey, 'errors')).toEqual([]);
  // The page saw its own error and nothing from the beacon.
  expect(pageErrors.map((error) => error.message)).toEqual(['cart is empty']);
});

test.describe('from a visitor\'s browser', () => {
  // Headless Chromium says "HeadlessChrome": a known bot, stored but left out of the issues'
  // counts and list (docs/issues.md). The demo's visitor is a person in a browser.
  test.use({ userAgent: BROWSER_USER_AGENT });

  test('the demo page of `serve --demo` reports its button error into the demo site, and the demo user sees it on the dashboard', async ({ page }) => {
    const dir = mkdtempSync(join(tmpdir(), 'sitebeacon-demo-'));
    const db = join(dir, 'demo.db');
    const demo = await spawnCollector({ db, args: ['--demo'] });
    try {
      await page.goto(`${demo.url}/demo`);
      await page.waitForFunction(() => 'sitebeacon' in window);
      await page.click('#throw');
      const exported = () => exportRecords(db, 'demo', 'errors');
      await expect.poll(exported, { timeout: 10_000 }).toHaveLength(1);
      expect(exported()[0]).toMatchObject({ error_message: 'demo: the cart is empty', error_name: 'TypeError' });
      // What npm start prints: the dashboard and the demo user, who sees the error there.
      expect(demo.info).toMatchObject({ dashboard: `${demo.url}/`, demo_user: { email: 'demo@sitebeacon.example' } });
      await page.goto(`${demo.url}/`);
      await page.getByLabel('Email').fill(demo.info.demo_user.email);
      await page.getByLabel('Password').fill(demo.info.demo_user.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('link', { name: 'Demo', exact: true }).click();
      await expect(page.getByTestId('error-groups')).toContainText('TypeError: demo: the cart is empty');
    } finally {
      await demo.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

