import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { parseMime, startSmtpReceiver } from '../collector/alerts/testing/smtpReceiver';
import { startWebhookReceiver } from '../collector/alerts/testing/webhookReceiver';
import { runCli, spawnCollector } from '../collector/testing/spawnCollector';
import { atBothWidths, signInWithForm } from './dashboardKit';

// A site's owner manages its alerts on the dashboard (docs/alerts.md, "The API" and "Sending a test"):
// a real `serve` with --smtp-url pointing at a real SMTP server this spec starts and
// --allow-private-webhooks for a real webhook receiver on 127.0.0.1.
test.describe.configure({ timeout: 120_000 });

/** Where this spec's screenshots land: test-results/dashboard-alerts/NAME-WIDTH.png (kept after the run). */
const SHOTS = fileURLToPath(new URL('../test-results/dashboard-alerts/', import.meta.url));
const SECRET = 'dashboard-hook-secret';
// A site name that is markup: the page must show it as text.
const HOSTILE_NAME = 'Shop <img src=x onerror="window.__pwned=1">';

test('alerts page: add an email rule and a signed webhook, send a test of each, see both deliveries; the mail and the verified webhook arrived; a failed test says why; remove', async ({ page }) => {
  const smtp = await startSmtpReceiver({ user: 'alerts', pass: 'smtp-pass' });
  const hook = await startWebhookReceiver(SECRET);
  const dir = mkdtempSync(join(tmpdir(), 'sitebeacon-e2e-alerts-'));
  const db = join(dir, 'sitebeacon.db');
  const collector = await spawnCollector({ db, args: ['--smtp-url', smtp.url, '--mail-from', 'sitebeacon <alerts@beacon.shop.example>', '--allow-private-webhooks', '--rate-limit', '0'] });
  try {
    const site = (JSON.parse(runCli(db, 'site', 'add', '--origin', 'https://shop.example', '--name', HOSTILE_NAME, '--json')) as { site_key: string }).site_key;
    const { password } = JSON.parse(runCli(db, 'user', 'add', '--email', 'owner@shop.example', '--json')) as { password: string };

    await page.addInitScript(() => {
      const violations: string[] = [];
      (window as { __violations?: string[] }).__violations = violations;
      document.addEventListener('securitypolicyviolation', (event) => violations.push(`${event.effectiveDirective} ${event.blockedURI}`));
    });
    await signInWithForm(page, collector.url, 'owner@shop.example', password);

    // From the site's page, its Alerts link. The site page's reads answered first: it asks for more
    // at once than one user's bound on heavy reads and waits its turn (a 429 on the console that is
    // the site page's); from the alerts page on, the console stays clean.
    await page.goto(`${collector.url}/sites/${site}`);
    await page.waitForLoadState('networkidle');
    const consoleErrors: string[] = [];
    page.on('console', (message) => message.type() == 'error' && consoleErrors.push(message.text()));
    page.on('pageerror', (error) => consoleErrors.push(error.message));
    await page.getByRole('navigation', { name: 'Site' }).getByRole('link', { name: 'Alerts' }).click();
    await expect(page).toHaveURL(`${collector.url}/sites/${site}/alerts`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Alerts of ${HOSTILE_NAME}`);
    await expect(page.getByText('No rule yet')).toBeVisible();
    await expect(page.getByText('No delivery yet.')).toBeVisible();

    // An email rule, then a signed webhook with its format.
    const form = page.getByRole('form', { name: 'Add a rule' });
    await form.getByLabel('Alert on').selectOption('new_issue');
    await form.getByLabel('Email to').fill('owner@shop.example');
    await form.getByLabel('Cooldown (minutes)').fill('30');
    await form.getByRole('button', { name: 'Add rule' }).click();
    const rules = page.getByTestId('alert-rules').locator('tbody tr');
    await expect(rules).toHaveCount(1);
    await expect(rules.first()).toContainText('New issue');
    await expect(rules.first()).toContainText('Email owner@shop.example');
    await expect(rules.first()).toContainText('30 min');
    await form.getByLabel('Alert on').selectOption('regression');
    await form.getByLabel('Webhook URL').fill(hook.url);
    await form.getByLabel('Webhook format').selectOption('json');
    await form.getByLabel('Webhook secret (signs each request)').fill(SECRET);
    await form.getByRole('button', { name: 'Add rule' }).click();
    await expect(rules).toHaveCount(2);
    await expect(rules.nth(1)).toContainText(`Webhook ${hook.url} (json, signed)`);
    // The secret went to the collector and never comes back to the page.
    expect(await page.content()).not.toContain(SECRET);

    // A refused rule says why, and nothing is added.
    await form.getByLabel('Alert on').selectOption('new_issue');
    await form.getByLabel('Webhook URL').fill('ftp://example.com/hooks');
    await form.getByRole('button', { name: 'Add rule' }).click();
    await expect(form.getByRole('alert')).toContainText('channels.0.url');
    await expect(rules).toHaveCount(2);

    // Send a test of each: each channel's outcome under its rule, and both deliveries logged.
    await page.getByRole('button', { name: 'Send a test of New issue rule' }).click();
    await expect(page.getByRole('status', { name: /Test of New issue rule/ })).toHaveText('Sent: Email owner@shop.example');
    await page.getByRole('button', { name: 'Send a test of Regression rule' }).click();
    await expect(page.getByRole('status', { name: /Test of Regression rule/ })).toHaveText(`Sent: Webhook ${hook.url}`);
    const deliveries = page.getByTestId('alert-delivery');
    await expect(deliveries).toHaveCount(2);
    await expect(deliveries.filter({ hasText: 'Email owner@shop.example' })).toContainText('New issue (test)');
    await expect(deliveries.filter({ hasText: `Webhook ${hook.url}` })).toContainText('Regression (test)');
    for (const row of await deliveries.all()) await expect(row.getByRole('cell').nth(3)).toContainText('Sent');

    // A webhook whose receiver is gone: the test says why, and so does its delivery.
    const gone = await startWebhookReceiver('gone');
    await gone.close();
    await form.getByLabel('Alert on').selectOption('csp_enforced_new');
    await form.getByLabel('Webhook URL').fill(gone.url);
    await form.getByLabel('Webhook format').selectOption('discord');
    await form.getByRole('button', { name: 'Add rule' }).click();
    await expect(rules).toHaveCount(3);
    await page.getByRole('button', { name: 'Send a test of New enforced CSP block rule' }).click();
    await expect(page.getByRole('status', { name: /Test of New enforced CSP block rule/ })).toContainText(`Failed: Webhook ${gone.url} — ECONNREFUSED`);
    await expect(deliveries).toHaveCount(3);
    const failed = deliveries.filter({ hasText: gone.url });
    await expect(failed.getByRole('cell').nth(3)).toHaveText('Failed');
    await expect(failed.getByRole('cell').nth(5)).toContainText('ECONNREFUSED');

    // What the SMTP server and the receiver got: one mail, one webhook whose signature verifies.
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]!.to).toEqual(['owner@shop.example']);
    expect(parseMime(smtp.received[0]!.raw).headers.get('subject')).toMatch(/^\[sitebeacon\] Test: New issue on Shop <img src=x onerror="window.__pwned=1">: sitebeacon test alert of rule \d+: nothing went wrong$/);
    expect(hook.requests).toHaveLength(1);
    expect(hook.requests[0]).toMatchObject({ verified: true, body: { kind: 'regression', test: true, site: { key: site }, url: `${collector.url}/sites/${site}` } });

    await atBothWidths(page, SHOTS, 'alerts');
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();

    // Remove the email rule.
    await page.getByRole('button', { name: 'Remove New issue rule' }).click();
    await expect(rules).toHaveCount(2);
    await expect(rules.first()).toContainText('Regression');
    const left = runCli(db, 'alert', 'list', '--site', site, '--json').trim().split('\n').map((line) => (JSON.parse(line) as { kind: string }).kind);
    expect(left).toEqual(['regression', 'csp_enforced_new']);

    expect(await page.evaluate(() => (window as { __violations?: string[] }).__violations)).toEqual([]);
    // The one refusal the page asked for (the ftp webhook's 400), as Chromium logs a failed fetch.
    expect(consoleErrors.filter((text) => !text.includes('status of 400'))).toEqual([]);
  } finally {
    await collector.stop();
    await smtp.close();
    await hook.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
