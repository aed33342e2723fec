import { mergeTests, type Page } from '@playwright/test';
import { expect, test as beaconTest } from '../playwright/index';
import { test as projectTest, type Collector, type PageServer } from './fixtures';
import { slowClick } from './slowClick';

// The script tag's tests run against a `sitebeacon serve` process (`collector`); the tests of what a
// capture sends, whatever loads the beacon, use sitebeacon/playwright's `beacon` (dogfood).
const test = mergeTests(projectTest, beaconTest);

/** The playground's buttons (e2e/pages/playground.js), each doing one thing the beacon must see. */
const PLAYGROUND = `<h1>Shop</h1><p>The largest paragraph on this page, for LCP: it has enough text to be the largest contentful element.</p>
     <button id="throw">throw</button><button id="reject">reject</button>
     <button id="broken-image">broken image</button><button id="blocked-image">blocked image</button>
     <button id="storm-distinct">storm</button><button id="storm-same">same storm</button>
     <button id="shift">shift</button><button id="slow">slow</button><button id="eval-throw">eval throw</button><span id="storm-done"></span>
     <script src="/playground.js" defer></script>`;

/** A page on the page server, with a real CSP header that allows the collector. */
const openPlayground = async (
  page: Page,
  pages: PageServer,
  collector: Collector,
  { csp, cspReportOnly, attributes = '' }: { csp?: string; cspReportOnly?: string; attributes?: string } = {},
) => {
  const siteKey = await collector.addSite(pages.origin);
  const headers: Record<string, string> = {
    'content-security-policy':
      csp ?? `default-src 'self'; script-src 'self' ${collector.origin}; connect-src ${collector.origin}; img-src 'self'`,
  };
  if (cspReportOnly) headers['content-security-policy-report-only'] = cspReportOnly;
  pages.route(
    '/shop',
    `<!doctype html><html lang="en"><title>shop</title>
     <script src="${collector.origin}/beacon.js" data-site-key="${siteKey}" data-ingest-origin="${collector.origin}" ${attributes} async></script>
     ${PLAYGROUND}</html>`,
    headers,
  );
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto(`${pages.origin}/shop?ref=mail#top`);
  await page.waitForFunction(() => 'sitebeacon' in window);
  return { siteKey, pageErrors };
};

/** Headless Chromium keeps tabs visible: leaving the page is how a test hides it. */
const leave = (page: Page) => page.goto('about:blank');

const stored = (collector: Collector, siteKey: string, kind: 'errors' | 'csp' | 'performance', count: number) =>
  expect.poll(() => collector.exported(siteKey, kind).then((records) => records.length), { timeout: 10_000 }).toBe(count);

test('a thrown error, an unhandled rejection and a failed image load are stored as expected', async ({ page, pages, collector }) => {
  const { siteKey, pageErrors } = await openPlayground(page, pages, collector);
  await page.click('#throw');
  await page.click('#reject');
  await page.click('#broken-image');
  await stored(collector, siteKey, 'errors', 3);
  const records = await collector.exported(siteKey, 'errors');
  const byType = Object.fromEntries(records.map((record) => [record.error_type, record]));
  expect(byType.javascript_error).toMatchObject({
    error_message: 'cart is empty',
    error_name: 'TypeError',
    source_url: `${pages.origin}/playground.js`,
    page_url: `${pages.origin}/shop?ref=mail`,
  });
  expect(byType.javascript_error!.stack).toContain('at checkout');
  expect(byType.unhandled_rejection).toMatchObject({ error_message: '{"code":"E_PAYMENT","retryable":false}' });
  expect(byType.resource_error).toMatchObject({
    error_message: 'img failed to load',
    source_url: `${pages.origin}/missing.png?size=large`,
  });
  // All three came from one page view.
  expect(new Set(records.map((record) => record.session_id)).size).toBe(1);
  expect(pageErrors).toEqual(['cart is empty', 'Object']);
});

test('no URL fragment or credentials reach the store: not in a stack, not in the page URL', async ({ page, pages, beacon }) => {
  // No CSP here: eval runs (the script tag's tests need 'unsafe-eval' in theirs).
  pages.route('/shop', `<!doctype html><html lang="en"><title>shop</title>${PLAYGROUND}</html>`);
  await page.goto(`${pages.origin}/shop?ref=mail#top`);
  // The page's own stack in Chromium carries what sourceURL says: credentials and fragment.
  expect(await page.evaluate(() => location.hash)).toBe('#top');
  await page.click('#eval-throw');
  await expect(beacon).toHaveReceivedError({ message: 'eval cart is empty', type: 'javascript_error' });
  const [record] = await beacon.errors();
  expect(record!.stack).toContain('at evalCheckout (http://assets.example/cart.js:1:');
  expect(record).toMatchObject({ error_message: 'eval cart is empty', page_url: `${pages.origin}/shop?ref=mail` });
  expect(JSON.stringify(record)).not.toMatch(/#|user:pw|pw@/);
});

test('a CSP violation is stored in the CSP2 shape, without invented empty fields; a violation against the collector is not', async ({ page, pages, collector }) => {
  const { siteKey } = await openPlayground(page, pages, collector, {
    // Report-only, the collector is still reachable, so a report about it would arrive: a feedback loop.
    cspReportOnly: `connect-src 'self'`,
  });
  await page.click('#throw');
  await page.click('#blocked-image');
  await stored(collector, siteKey, 'csp', 1);
  // The blocked image is also an image that failed to load.
  await stored(collector, siteKey, 'errors', 2);
  expect((await collector.exported(siteKey, 'errors')).map((record) => record.error_type).sort()).toEqual([
    'javascript_error',
    'resource_error',
  ]);
  await leave(page);
  await page.waitForTimeout(1500);
  const reports = await collector.exported(siteKey, 'csp');
  expect(reports).toHaveLength(1);
  expect(reports[0]).toMatchObject({
    report_type: 'csp-violation',
    document_uri: `${pages.origin}/shop?ref=mail`,
    violated_directive: 'img-src',
    effective_directive: 'img-src',
    blocked_uri: 'https://blocked.example/pixel.gif',
    disposition: 'enforce',
  });
  expect(reports[0]!.original_policy).toContain("img-src 'self'");
  // Chromium's event has an empty referrer and sample for an image: not sent, so not stored as "".
  expect(reports[0]!.referrer ?? null).toBeNull();
  expect(reports[0]!.script_sample ?? null).toBeNull();
  // Nor is its line 0 ("unknown", for an image the script inserted) stored as a position.
  expect(reports[0]!.line_number ?? null).toBeNull();
  expect(reports[0]!.column_number ?? null).toBeNull();
  expect(JSON.stringify(reports[0])).not.toContain('""');
});

test('a performance session with LCP, FCP, TTFB and CLS, and INP after a click, is updated when the page is hidden', async ({
  page,
  pages,
  collector,
}) => {
  const { siteKey } = await openPlayground(page, pages, collector);
  await page.click('#shift');
  await page.waitForTimeout(1200);
  await slowClick(page);
  await stored(collector, siteKey, 'performance', 1);
  const early = (await collector.exported(siteKey, 'performance'))[0]!;
  expect(Object.keys(early.metrics as object)).toEqual(expect.arrayContaining(['FCP', 'TTFB']));

  await leave(page);
  await expect
    .poll(async () => Object.keys(((await collector.exported(siteKey, 'performance'))[0]!.metrics as object) ?? {}).sort(), { timeout: 10_000 })
    .toEqual(['CLS', 'FCP', 'INP', 'LCP', 'TTFB']);
  const [session] = await collector.exported(siteKey, 'performance');
  const metrics = session!.metrics as Record<string, { value: number; rating: string }>;
  expect(session).toMatchObject({ page_url: `${pages.origin}/shop?ref=mail`, navigation_type: 'navigate' });
  expect(metrics.CLS!.value).toBeGreaterThan(0);
  expect(metrics.INP!.value).toBeGreaterThanOrEqual(100);
  expect(metrics.LCP!.value).toBeGreaterThan(0);
  for (const metric of Object.values(metrics)) expect(['good', 'needs-improvement', 'poor']).toContain(metric.rating);
  // One page view, one session, whatever the number of updates.
  expect(await collector.exported(siteKey, 'performance')).toHaveLength(1);
});

test('data-sample-rate="0" sends no performance session, and errors still go', async ({ page, pages, collector }) => {
  const { siteKey } = await openPlayground(page, pages, collector, { attributes: 'data-sample-rate="0"' });
  await page.click('#throw');
  await stored(collector, siteKey, 'errors', 1);
  await leave(page);
  await page.waitForTimeout(1500);
  expect(await collector.exported(siteKey, 'performance')).toEqual([]);
});

test.describe('an error storm', () => {
  test.use({ beaconOptions: { capture: ['errors'] } });

  test('of 10,000 throws yields a bounded number of reports and the page stays responsive', async ({ page, pages, beacon }) => {
    pages.route('/shop', `<!doctype html><html lang="en"><title>shop</title>${PLAYGROUND}</html>`);
    await page.goto(`${pages.origin}/shop`);
    await page.click('#storm-distinct');
    await expect(page.locator('#storm-done')).toHaveText('done');
    await page.click('#storm-same');
    // Leaving sends what is queued; the fixture's flush waits until the collector has answered it all.
    await leave(page);
    await beacon.flush();
    const records = await beacon.errors();
    expect(records.length).toBeGreaterThan(0);
    expect(records.length).toBeLessThanOrEqual(25);
    const same = records.filter((record) => record.error_message == 'the same storm');
    expect(same.reduce((total, record) => total + Number(record.count ?? 1), 0)).toBeLessThanOrEqual(10_000);
  });
});

test('with the collector stopped, the page sees no error from the beacon', async ({ page, pages, collector }) => {
  const { siteKey, pageErrors } = await openPlayground(page, pages, collector);
  await collector.stop();
  await page.click('#throw');
  await page.click('#reject');
  await page.waitForTimeout(2500);
  await page.evaluate(() => (window as unknown as { sitebeacon: { flush(): Promise<void> } }).sitebeacon.flush());
  expect(pageErrors).toEqual(['cart is empty', 'Object']);
  expect(siteKey).toBeTruthy();
});

test('with the collector blocked by connect-src, the page sees no error and nothing is stored', async ({ page, pages, collector }) => {
  const { siteKey, pageErrors } = await openPlayground(page, pages, collector, {
    csp: `default-src 'self'; script-src 'self' ${collector.origin}; connect-src 'self'; img-src 'self'`,
  });
  await page.click('#throw');
  await page.click('#blocked-image');
  await page.waitForTimeout(2500);
  await leave(page);
  await page.waitForTimeout(1000);
  expect(pageErrors).toEqual(['cart is empty']);
  expect(await collector.exported(siteKey, 'errors')).toEqual([]);
  expect(await collector.exported(siteKey, 'csp')).toEqual([]);
});
