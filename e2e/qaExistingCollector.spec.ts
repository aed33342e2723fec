import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mergeTests } from '@playwright/test';
import { runCli, spawnCollector } from '../collector/testing/spawnCollector';
import { expect, test as beaconTest } from '../playwright/index';
import { test as projectTest } from './fixtures';

// The option `beaconCollector` (README, "In your Playwright tests"): the fixture reports to an existing collector (here a real
// `sitebeacon serve` process) instead of starting one, and reads it back through its read API.
const test = mergeTests(
  beaconTest.extend<{}, { stagingOrigin: { origin: string; pages: Map<string, string> } }>({
    // A page server for the whole worker, as a staging site is: the site allows its origin.
    stagingOrigin: [
      async ({}, use) => {
        const pages = new Map<string, string>();
        const server = createServer((req, res) => {
          const body = pages.get(new URL(req.url!, 'http://x').pathname);
          res.writeHead(body ? 200 : 404, { 'content-type': 'text/html' }).end(body ?? 'not found');
        });
        await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
        await use({ origin: `http://127.0.0.1:${(server.address() as { port: number }).port}`, pages });
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      },
      { scope: 'worker' },
    ],
    beaconCollector: [
      async ({ stagingOrigin }, use) => {
        const dir = mkdtempSync(join(tmpdir(), 'sitebeacon-existing-'));
        const db = join(dir, 'sitebeacon.db');
        const running = await spawnCollector({ db });
        const { site_key: siteKey } = JSON.parse(runCli(db, 'site', 'add', '--origin', stagingOrigin.origin, '--json')) as { site_key: string };
        const { api_key: apiKey } = JSON.parse(runCli(db, 'key', 'create', '--site', siteKey, '--json')) as { api_key: string };
        await use({ url: running.url, siteKey, apiKey });
        await running.stop();
        rmSync(dir, { recursive: true, force: true });
      },
      { scope: 'worker' },
    ],
  }),
  projectTest,
);

const failureOf = async (assertion: Promise<unknown>) => {
  try {
    await assertion;
  } catch (error) {
    return (error as Error).message.replace(/\u001b\[[\d;]*m/g, '');
  }
  throw new Error('the assertion passed; it should have failed');
};

test.describe('one site shared by the tests of a worker', () => {
  // Same worker, in order: the second test runs against a site that already holds the first one's error.
  test.describe.configure({ mode: 'serial' });

  test('an error on the staging origin is stored by the existing collector and read back', async ({ page, beacon, beaconCollector, stagingOrigin }) => {
    stagingOrigin.pages.set('/cart', `<!doctype html><p>cart</p><script>setTimeout(() => { throw new TypeError('staging cart is empty'); })</script>`);
    expect(beacon).toMatchObject({ collectorUrl: beaconCollector!.url, siteKey: beaconCollector!.siteKey });
    await page.goto(`${stagingOrigin.origin}/cart`);
    await expect(beacon).toHaveReceivedError({ message: 'staging cart is empty', type: 'javascript_error' });
    expect(beacon.problems()).toEqual([]);
  });

  test('a later test reads only what arrived since it started', async ({ page, beacon, stagingOrigin }) => {
    stagingOrigin.pages.set('/clean', '<!doctype html><p>clean</p>');
    await page.goto(`${stagingOrigin.origin}/clean`);
    await expect(beacon).toHaveNoErrors();
  });
});

test.describe('a page on an origin the site does not allow', () => {
  // Errors only: every refusal is named by the failed matcher, so the test's end has nothing left to fail on.
  test.use({ beaconOptions: { capture: ['errors'] } });

  test('the matcher names the collector\'s refusal', async ({ page, pages, beacon }) => {
    pages.route('/cart', `<!doctype html><p>cart</p><script>setTimeout(() => { throw new TypeError('elsewhere'); })</script>`);
    await page.goto(`${pages.origin}/cart`);
    const message = await failureOf(expect(beacon).toHaveReceivedError({ message: 'elsewhere' }));
    expect(message).toContain("The beacon could not report everything, so the collector's records cannot answer this assertion:");
    expect(message).toMatch(
      new RegExp(`the collector refused a report \\(403 origin_not_allowed: origin ${pages.origin} is not allowed to report to this site\\) at ${beacon.collectorUrl}/api/`),
    );
  });
});

test.describe('with failOnOwnErrors off', () => {
  test.use({ beaconOptions: { failOnOwnErrors: false } });

  test('a refused report is still listed, apart, and the test does not fail for it', async ({ page, pages, beacon }) => {
    pages.route('/cart', `<!doctype html><p>cart</p><script>setTimeout(() => { throw new TypeError('elsewhere'); })</script>`);
    await page.goto(`${pages.origin}/cart`);
    const message = await failureOf(expect.configure({ timeout: 1_000 })(beacon).toHaveReceivedError({ message: 'elsewhere' }));
    expect(message).toContain('Received: no error reports');
    expect(message).toContain("The beacon's own errors (failOnOwnErrors is off):\n  - the collector refused a report (403 origin_not_allowed");
    expect(beacon.problems()).toContainEqual(expect.objectContaining({ kind: 'refused', status: 403, url: expect.stringContaining('/api/error-reports/') }));
  });
});
