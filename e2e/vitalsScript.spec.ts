// beacon.js loads web-vitals as a second script, beacon.vitals.js, from beside itself at idle.
// These pages load both from a script server of the test's own, on a third origin, so that the
// second script can be held back: what happened on the page before web-vitals was registered must
// still be measured (buffered performance entries).
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { Page } from '@playwright/test';
import { expect, test, type Collector } from './fixtures';
import { interactionHandled } from './slowClick';

const dist = (file: string) => readFileSync(new URL(`../dist/${file}`, import.meta.url));

/** Serves dist/beacon.min.js at /beacon.js and dist/beacon.vitals.min.js at /beacon.vitals.js, the latter when released. */
const startScriptServer = async () => {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const requested: string[] = [];
  const server: Server = createServer(async (req, res) => {
    requested.push(req.url!);
    const file = req.url == '/beacon.js' ? 'beacon.min.js' : req.url == '/beacon.vitals.js' ? 'beacon.vitals.min.js' : '';
    if (!file) return void res.writeHead(404).end();
    if (file == 'beacon.vitals.min.js') await released;
    res.writeHead(200, { 'content-type': 'text/javascript', 'cache-control': 'no-store' }).end(dist(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    origin: `http://127.0.0.1:${port}`,
    requested,
    release,
    close: () => {
      release();
      server.closeAllConnections();
      server.close();
    },
  };
};

const metricNames = async (collector: Collector, siteKey: string) =>
  Object.keys(((await collector.exported(siteKey, 'performance'))[0]?.metrics as object) ?? {}).sort();

const waitForVitals = (page: Page) => page.waitForFunction(() => 'sitebeaconVitals' in window);

test('web-vitals loaded after the page was used still reports its load and interactions: LCP, FCP, TTFB, CLS, INP', async ({
  page,
  pages,
  collector,
}) => {
  const scripts = await startScriptServer();
  try {
    const siteKey = await collector.addSite(pages.origin);
    pages.route(
      '/shop',
      `<!doctype html><html lang="en"><title>shop</title>
       <script src="${scripts.origin}/beacon.js" data-site-key="${siteKey}" data-ingest-origin="${collector.origin}" async></script>
       <h1>Shop</h1><p>The largest paragraph on this page, for LCP: it has enough text to be the largest contentful element.</p>
       <button id="shift">shift</button><button id="slow">slow</button>
       <script src="/playground.js" defer></script></html>`,
      // A policy that allows the script host: both scripts come from it.
      { 'content-security-policy': `default-src 'self'; script-src 'self' ${scripts.origin}; connect-src ${collector.origin}` },
    );
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(`${pages.origin}/shop#top`);
    await page.waitForFunction(() => 'sitebeacon' in window);
    // beacon.js asked for the second script, which is held back: web-vitals is not registered yet.
    await expect.poll(() => scripts.requested).toContain('/beacon.vitals.js');
    await page.click('#shift');
    await page.waitForTimeout(1200);
    const beforeClick = await page.evaluate(() => performance.now());
    await page.click('#slow');
    await expect(page.locator('#slow')).toHaveText('clicked');
    expect(await page.evaluate(() => 'sitebeaconVitals' in window)).toBe(false);

    scripts.release();
    await waitForVitals(page);
    await interactionHandled(page, beforeClick);
    await page.goto('about:blank');
    await expect.poll(() => metricNames(collector, siteKey), { timeout: 10_000 }).toEqual(['CLS', 'FCP', 'INP', 'LCP', 'TTFB']);
    const [session] = await collector.exported(siteKey, 'performance');
    const metrics = session!.metrics as Record<string, { value: number }>;
    // The 120 ms click happened before registration: it came from the Event Timing buffer.
    expect(metrics.INP!.value).toBeGreaterThanOrEqual(100);
    expect(metrics.CLS!.value).toBeGreaterThan(0);
    expect(session).toMatchObject({ page_url: `${pages.origin}/shop`, navigation_type: 'navigate' });
    expect(pageErrors).toEqual([]);
  } finally {
    scripts.close();
  }
});

test("under a nonce-only policy the second script runs with beacon.js's nonce, and the vitals arrive", async ({ page, pages, collector }) => {
  const siteKey = await collector.addSite(pages.origin);
  pages.route(
    '/nonce',
    `<!doctype html><html lang="en"><title>nonce</title>
     <script nonce="r4nd0m" src="${collector.origin}/beacon.js" data-site-key="${siteKey}" data-ingest-origin="${collector.origin}" async></script>
     <h1>Nonce</h1><p>A page whose policy names no script host at all: only scripts with its nonce run.</p></html>`,
    { 'content-security-policy': `default-src 'self'; script-src 'nonce-r4nd0m'; connect-src ${collector.origin}` },
  );
  await page.goto(`${pages.origin}/nonce`);
  await waitForVitals(page);
  await page.waitForTimeout(500);
  await page.goto('about:blank');
  await expect.poll(() => metricNames(collector, siteKey), { timeout: 10_000 }).toEqual(expect.arrayContaining(['FCP', 'LCP', 'TTFB']));
  // Nothing about the beacon's own scripts was reported as a violation.
  expect(await collector.exported(siteKey, 'csp')).toEqual([]);
});
