// The Reporting API (`report-to` with `Reporting-Endpoints`): Chromium delivers its reports only
// to HTTPS endpoints, after a delay that --short-reporting-delay makes a few seconds. These launch
// options need a worker of their own, hence a file of its own.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { exportRecords, runCli, selfSignedCertificate, spawnCollector } from '../collector/testing/spawnCollector';
import { CHROMIUM_ARGS, findChromium } from './chromium.mjs';

test.use({
  ignoreHTTPSErrors: true,
  launchOptions: {
    executablePath: findChromium(),
    args: [...CHROMIUM_ARGS, '--ignore-certificate-errors', '--short-reporting-delay'],
  },
});

test('a report-to violation arrives by preflight then application/reports+json, and is stored', async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'sitebeacon-reporting-'));
  const { cert, key } = selfSignedCertificate(dir);
  const db = join(dir, 'sitebeacon.db');
  const collector = await spawnCollector({ db, args: ['--tls-cert', cert, '--tls-key', key] });
  const collectorOrigin = `https://localhost:${collector.port}`;
  let siteKey = '';
  const server = createServer({ cert: readFileSync(cert), key: readFileSync(key) }, (_req, res) => {
    res.writeHead(200, {
      'content-type': 'text/html',
      'content-security-policy': `default-src 'self'; img-src 'self'; report-to sitebeacon`,
      'reporting-endpoints': `sitebeacon="${collectorOrigin}/api/csp-reports/${siteKey}"`,
    });
    res.end('<!doctype html><p>shop</p><img src="https://cdn.example.net/pixel.gif">');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const pageOrigin = `https://127.0.0.1:${(server.address() as { port: number }).port}`;
  try {
    siteKey = (JSON.parse(runCli(db, 'site', 'add', '--origin', pageOrigin, '--json')) as { site_key: string }).site_key;
    await page.goto(`${pageOrigin}/cart?step=2#top`);
    const stored = () => exportRecords(db, siteKey, 'csp');
    await expect.poll(stored, { timeout: 20_000 }).toHaveLength(1);
    expect(stored()[0]).toMatchObject({
      report_type: 'csp-violation',
      document_uri: `${pageOrigin}/cart?step=2`,
      effective_directive: 'img-src',
      violated_directive: 'img-src',
      blocked_uri: 'https://cdn.example.net/pixel.gif',
      age: expect.any(Number),
    });
    // It came the Reporting API's way: a preflight, then the batch.
    // (The request log line is written just after the response.)
    await expect.poll(collector.stderr).toMatch(/"method":"OPTIONS","path":"\/api\/csp-reports\/[0-9a-f]+","status":204/);
    await expect.poll(collector.stderr).toMatch(/"method":"POST","path":"\/api\/csp-reports\/[0-9a-f]+","status":202/);
  } finally {
    server.close();
    await collector.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
