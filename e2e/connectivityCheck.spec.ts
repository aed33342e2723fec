// The setup page's connectivity check from the site owner's browser (spec section 5.2;
// docs/connectivity-check.md, "From the browser"), in Chromium under the dashboard's own strict CSP: the ingest host and the main host
// are checked separately, cross-origin with CORS as a page's script is, and one real test report
// is sent to the ingest host; what the collector stored is read back with `sitebeacon export`.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { type Page } from '@playwright/test';
import { exportRecords, runCli, spawnCollector, type CollectorProcess } from '../collector/testing/spawnCollector';
import { screenshots, signInWithForm } from './dashboardKit';
import { expect, test } from './fixtures';

test.describe.configure({ timeout: 90_000 });

/** A loopback port that was free a moment ago (closed again: connections to it are refused). */
const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/** `sitebeacon serve` with `--ingest-url`, a site, and a signed-in owner; stopped and removed after the test. */
const withCollector = async (
  ingestUrl: (port: number) => string,
  run: (collector: CollectorProcess, db: string, siteKey: string) => Promise<void>,
  page: Page,
  args: string[] = [],
) => {
  const dir = mkdtempSync(join(tmpdir(), 'sitebeacon-check-'));
  const db = join(dir, 'sitebeacon.db');
  const port = await freePort();
  const collector = await spawnCollector({ db, args: ['--port', String(port), '--ingest-url', ingestUrl(port), ...args] });
  // The dashboard as its users reach it: the public URL (a proxy's, when one is given).
  const publicUrl = collector.info.public_url as string;
  try {
    const { site_key: siteKey } = JSON.parse(runCli(db, 'site', 'add', '--origin', 'https://shop.example', '--json')) as { site_key: string };
    const { password } = JSON.parse(runCli(db, 'user', 'add', '--email', 'owner@shop.example', '--json')) as { password: string };
    await signInWithForm(page, publicUrl, 'owner@shop.example', password);
    await page.goto(`${publicUrl}/sites/${siteKey}/setup`);
    await expect(page.getByRole('heading', { name: 'Connectivity' })).toBeVisible();
    await run(collector, db, siteKey);
  } finally {
    await collector.stop();
    rmSync(dir, { recursive: true, force: true });
  }
};

/** axe on the page as it is now: no serious or critical violation. */
const accessible = async (page: Page) => {
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.filter((violation) => violation.impact == 'serious' || violation.impact == 'critical').map((violation) => violation.id)).toEqual([]);
};

test('a healthy collector: the ingest host (another origin) and the main host are OK, and the test report becomes the last connectivity check', async ({ page }) => {
  // Chromium reports what the page's CSP refused on the console.
  const violations: string[] = [];
  page.on('console', (message) => /Content Security Policy/i.test(message.text()) && violations.push(message.text()));
  const failed: string[] = [];
  // A request the page gave up by navigating (the overview's reads when the setup page is opened,
  // net::ERR_ABORTED) is no failure; a refused, blocked or unreachable one is.
  page.on('requestfailed', (request) => request.failure()?.errorText != 'net::ERR_ABORTED' && failed.push(`${request.url()} ${request.failure()?.errorText}`));
  // The ingest host is the same collector under another origin (localhost, where the dashboard is
  // on 127.0.0.1): CORS and the dashboard's connect-src are exercised as with a separate host.
  await withCollector((port) => `http://localhost:${port}`, async (collector, db, siteKey) => {
    const ingest = `http://localhost:${collector.port}/api`;
    const policy = (await page.request.get(`${collector.url}/sites/${siteKey}/setup`)).headers()['content-security-policy']!;
    expect(policy).toContain(`connect-src 'self' http://localhost:${collector.port}`);
    await expect(page.getByTestId('last-check')).toContainText('No connectivity check received');
    await page.getByRole('button', { name: 'Check connectivity from this browser' }).click();
    await expect(page.getByTestId('connectivity-status')).toHaveText('Check finished: all 3 passed.');
    await expect(page.getByTestId('connectivity-ingest')).toContainText(`Ingest host ${ingest}/test-connectivity`);
    await expect(page.getByTestId('connectivity-ingest')).toContainText('OK: answered "success"');
    await expect(page.getByTestId('connectivity-main')).toContainText(`Main host ${collector.url}/api/test-connectivity`);
    await expect(page.getByTestId('connectivity-main')).toContainText('OK: answered "success"');
    await expect(page.getByTestId('connectivity-submission')).toContainText('OK: accepted (HTTP 202)');
    // Stored by the collector, from this browser, and not counted as one of the site's errors.
    const stored = exportRecords(db, siteKey, 'errors');
    expect(stored).toEqual([expect.objectContaining({ error_type: 'connectivity_check', error_message: `sitebeacon check from the dashboard on 127.0.0.1:${collector.port}` })]);
    expect(stored[0]!.user_agent).toMatch(/Chrome\//);
    const summary = await page.request.get(`${collector.url}/api/v1/sites/${siteKey}/summary`);
    expect((await summary.json()).errors).toEqual([]);
    // The page shows it as the last connectivity check, as the setup API has it.
    await expect(page.getByTestId('last-check')).toContainText(`Last connectivity check received ${String(stored[0]!.received_at).slice(0, 10)}`);
    await expect(page.getByTestId('last-check')).toContainText('"sitebeacon check from the dashboard on 127.0.0.1:');
    const setup = await (await page.request.get(`${collector.url}/api/v1/sites/${siteKey}/setup`)).json();
    expect(setup.last_connectivity_check).toMatchObject({ message: stored[0]!.error_message, reports: 1 });
    await accessible(page);
    await screenshots(page, 'setup-check-ok');
  }, page);
  // No CSP violation and no failed request on the way.
  expect(violations).toEqual([]);
  expect(failed).toEqual([]);
});

test("a proxy in front of the dashboard that replaces its CSP: the ingest host is named as blocked by the page's connect-src", async ({ page }) => {
  const proxyPort = await freePort();
  // The dashboard is reached through the proxy (its public URL); the proxy forwards everything to
  // the collector, Host included, but sends its own policy, without the collector's ingest host.
  const proxy = createHttpServer((req, res) => {
    const upstream = httpRequest({ host: '127.0.0.1', port: target, path: req.url, method: req.method, headers: req.headers }, (answer) => {
      const headers = { ...answer.headers, 'content-security-policy': "default-src 'self'" };
      res.writeHead(answer.statusCode!, headers);
      answer.pipe(res);
    });
    req.pipe(upstream);
  });
  let target = 0;
  await new Promise<void>((resolve) => proxy.listen(proxyPort, '127.0.0.1', resolve));
  try {
    await withCollector(
      (port) => {
        target = port;
        return `http://localhost:${port}`;
      },
      async (collector, db, siteKey) => {
        await page.getByRole('button', { name: 'Check connectivity from this browser' }).click();
        await expect(page.getByTestId('connectivity-status')).toHaveText('Check finished: 2 of 3 failed.');
        await expect(page.getByTestId('connectivity-ingest')).toContainText("Failed: blocked by this page's Content-Security-Policy (connect-src).");
        await expect(page.getByTestId('connectivity-ingest')).toContainText('a proxy in front of the dashboard');
        await expect(page.getByTestId('connectivity-main')).toContainText(`Main host http://127.0.0.1:${proxyPort}/api/test-connectivity`);
        await expect(page.getByTestId('connectivity-main')).toContainText('OK: answered "success"');
        expect(exportRecords(db, siteKey, 'errors')).toEqual([]);
        expect(collector.port).toBe(target);
      },
      page,
      ['--public-url', `http://127.0.0.1:${proxyPort}`],
    );
  } finally {
    proxy.closeAllConnections();
    await new Promise((resolve) => proxy.close(resolve));
  }
});

test('a refused ingest host fails with the reason and what to do; the main host is OK; no report is sent', async ({ page }) => {
  const refused = await freePort();
  await withCollector(() => `http://127.0.0.1:${refused}`, async (_collector, db, siteKey) => {
    await page.getByRole('button', { name: 'Check connectivity from this browser' }).click();
    await expect(page.getByTestId('connectivity-status')).toHaveText('Check finished: 2 of 3 failed.');
    const ingest = page.getByTestId('connectivity-ingest');
    await expect(ingest).toHaveClass(/failed/);
    await expect(ingest).toContainText(`http://127.0.0.1:${refused}/api/test-connectivity`);
    await expect(ingest).toContainText('Failed: network error or blocked (Failed to fetch).');
    await expect(ingest).toContainText(`What to do: Browsers do not say why`);
    await expect(ingest.locator('code')).toHaveText(`sitebeacon check http://127.0.0.1:${refused}/api`);
    await expect(page.getByTestId('connectivity-main')).toContainText('OK: answered "success"');
    await expect(page.getByTestId('connectivity-submission')).toContainText('Not sent: the ingest host did not answer the connectivity check.');
    expect(exportRecords(db, siteKey, 'errors')).toEqual([]);
    await expect(page.getByTestId('last-check')).toContainText('No connectivity check received');
    await accessible(page);
    await screenshots(page, 'setup-check-refused');
  }, page);
});
