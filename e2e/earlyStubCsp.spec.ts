// The snippet `sitebeacon snippet` generates carries the early-capture stub (docs/early-capture.md).
// A page whose CSP allows exactly the printed csp_sources runs the stub: no violation for its inline
// script, and the stub's queue exists, and keeps what fails, while beacon.js has not arrived yet.
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

/** What the page's window holds here: the stub's queue, and the violations the test records. */
type Watched = Window & { sitebeaconQueue?: Array<[Event, number]>; violations?: string[] };

interface Setup {
  snippet: string;
  beacon_url: string;
  csp_sources: Record<string, string[]>;
}

/** Holds beacon.js until the returned function is called: the page runs as it does before the beacon has loaded. */
const holdBeacon = async (page: Page, beaconUrl: string) => {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(beaconUrl, async (route) => {
    await released;
    await route.continue();
  });
  return release;
};

/** Every CSP violation the document sees, from before the page's first script (init scripts are not subject to its CSP). */
const recordViolations = (page: Page) =>
  page.addInitScript(() => {
    const violations: string[] = ((window as Watched).violations = []);
    document.addEventListener('securitypolicyviolation', (event) => violations.push(`${event.effectiveDirective} ${event.blockedURI}`), true);
  });

const policyOf = (sources: Record<string, string[]>) =>
  ["default-src 'none'", ...Object.entries(sources).map(([directive, list]) => `${directive} ${list.join(' ')}`)].join('; ');

test('under a strict CSP of exactly the printed sources, the stub runs and queues a failed load before beacon.js has loaded', async ({ page, pages, collector }) => {
  const siteKey = await collector.addSite(pages.origin);
  const { stdout } = await collector.cli('snippet', '--site', siteKey, '--public-url', collector.origin, '--json');
  const setup = JSON.parse(stdout) as Setup;
  expect(setup.csp_sources['script-src']).toContainEqual(expect.stringMatching(/^'sha256-[A-Za-z0-9+/]{43}='$/));
  // A script the policy allows (the collector's origin) that fails to load: an early `error` event.
  pages.route(
    '/strict',
    `<!doctype html><html><head><title>strict</title>\n${setup.snippet}\n</head><body><script src="${collector.origin}/no-such-script.js"></script></body></html>`,
    { 'content-security-policy': policyOf(setup.csp_sources) },
  );
  await recordViolations(page);
  const release = await holdBeacon(page, setup.beacon_url);

  await page.goto(`${pages.origin}/strict`, { waitUntil: 'domcontentloaded' });
  await page.waitForFunction(() => ((window as Watched).sitebeaconQueue?.length ?? 0) > 0);
  const queued = await page.evaluate(() =>
    (window as Watched).sitebeaconQueue!.map(([event, time]) => ({ type: event.type, src: (event.target as HTMLScriptElement).src, time })),
  );
  expect(queued).toEqual([{ type: 'error', src: `${collector.origin}/no-such-script.js`, time: expect.any(Number) }]);
  expect(await page.evaluate(() => 'sitebeacon' in window)).toBe(false);
  expect(await page.evaluate(() => (window as Watched).violations)).toEqual([]);

  // The beacon loads under the same policy (its SRI hash, its host in script-src) without a violation.
  release();
  await page.waitForFunction(() => 'sitebeacon' in window);
  expect(await page.evaluate(() => (window as Watched).violations)).toEqual([]);
});

test("without the stub's hash in script-src, the same policy blocks the stub: the hash is what allows it", async ({ page, pages, collector }) => {
  const siteKey = await collector.addSite(pages.origin);
  const { stdout } = await collector.cli('snippet', '--site', siteKey, '--public-url', collector.origin, '--json');
  const setup = JSON.parse(stdout) as Setup;
  const withoutHash = { ...setup.csp_sources, 'script-src': setup.csp_sources['script-src']!.filter((source) => !source.startsWith("'sha256-")) };
  pages.route('/no-hash', `<!doctype html><html><head><title>no hash</title>\n${setup.snippet}\n</head><body></body></html>`, {
    'content-security-policy': policyOf(withoutHash),
  });
  await recordViolations(page);
  const release = await holdBeacon(page, setup.beacon_url);

  await page.goto(`${pages.origin}/no-hash`, { waitUntil: 'domcontentloaded' });
  await page.waitForFunction(() => (window as Watched).violations!.length > 0);
  expect(await page.evaluate(() => (window as Watched).violations)).toEqual(['script-src-elem inline']);
  expect(await page.evaluate(() => 'sitebeaconQueue' in window)).toBe(false);
  release();
});
