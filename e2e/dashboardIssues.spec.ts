import { fileURLToPath } from 'node:url';
import { atBothWidths, BROWSER_USER_AGENT, signInWithForm } from './dashboardKit';
import { expect, test, type Collector } from './fixtures';

// The site owner works through a site's issues (docs/dashboard.md, "Issues"; docs/issues.md).
test.describe.configure({ timeout: 150_000 });

/** Where this spec's screenshots land: test-results/dashboard-issues/NAME-WIDTH.png (kept after the run). */
const SHOTS = fileURLToPath(new URL('../test-results/dashboard-issues/', import.meta.url));
const WINDOWS = BROWSER_USER_AGENT;
const ANDROID = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';

const report = (message: string, extra: Record<string, unknown> = {}) => ({
  error_type: 'javascript_error',
  error_name: 'TypeError',
  error_message: message,
  stack: `TypeError: ${message}\n    at checkout (https://shop.example/app.js:3:9)`,
  page_url: 'https://shop.example/cart',
  session_id: `s-${message}`,
  release: '1.0',
  environment: 'production',
  ...extra,
});

/** POSTs error reports as a browser with `userAgent` sends them (the collector parses its OS), and checks they were accepted. */
const send = async (collector: Collector, siteKey: string, userAgent: string, reports: unknown[]) => {
  const response = await fetch(`${collector.url}/api/error-reports/${siteKey}`, { method: 'POST', headers: { 'content-type': 'application/json', 'user-agent': userAgent }, body: JSON.stringify(reports) });
  expect(response.status, await response.clone().text()).toBeLessThan(300);
};

test('issues: page 2 by cursor, search, filter by OS kept across an issue and back, resolve, a new occurrence regresses it, resolve in a release, ignore, unresolve', async ({ page, collector }) => {
  const shop = await collector.addSite('https://shop.example');
  const password = await collector.addUser('owner@shop.example');
  // Words, not numbers: grouping reads numbers in a message as variable (docs/grouping.md).
  const word = (i: number) => `q${String.fromCharCode(97 + Math.floor(i / 26), 97 + (i % 26))}`;
  const fillers = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => report(`filler ${word(from + i)} went wrong`));
  // 32 issues: 29 from Windows (one of them "checkout failed"), 3 from Android (one "menu broken").
  await send(collector, shop, WINDOWS, [report('checkout failed'), ...fillers(0, 28)]);
  await send(collector, shop, ANDROID, [report('menu broken', { page_url: 'https://shop.example/menu' }), ...fillers(28, 30)]);
  const [checkout] = (await collector.exported(shop, 'errors')).filter((stored) => stored.error_message == 'checkout failed');

  await page.addInitScript(() => {
    const violations: string[] = [];
    (window as { __violations?: string[] }).__violations = violations;
    document.addEventListener('securitypolicyviolation', (event) => violations.push(`${event.effectiveDirective} ${event.blockedURI}`));
  });
  await signInWithForm(page, collector.url, 'owner@shop.example', password);
  // The sites list's reads answered (it asks for more at once than one user's bound on heavy reads,
  // and waits its turn: a 429 on the console that is the sites list's, not the issues'); from here
  // on the console stays clean (the sign-in page's own 401 read is expected too).
  await expect(page.getByTestId('errors-7d')).toHaveCount(3);
  await page.waitForLoadState('networkidle');
  const consoleErrors: string[] = [];
  page.on('console', (message) => message.type() == 'error' && consoleErrors.push(message.text()));
  page.on('pageerror', (error) => consoleErrors.push(error.message));

  const table = page.getByTestId('error-groups');
  const rows = table.locator('tbody tr');
  const row = (title: string) => rows.filter({ has: page.getByRole('link', { name: title, exact: true }) });

  // Page 1 and page 2 by cursor, and back.
  await page.goto(`${collector.url}/sites/${shop}`);
  await expect(rows).toHaveCount(25);
  await expect(page.getByTestId('issues-page')).toHaveText('Page 1');
  await expect(rows.first().getByTestId('badge-new')).toBeVisible();
  // Every column fits a desktop's width: the table does not scroll sideways, the row's buttons are on screen.
  await page.setViewportSize({ width: 1440, height: 900 });
  expect(await table.evaluate((element) => element.parentElement!.scrollWidth - element.parentElement!.clientWidth)).toBeLessThanOrEqual(0);
  const first = await rows.evaluateAll((each) => each.map((tr) => tr.getAttribute('data-fingerprint')));
  await atBothWidths(page, SHOTS, 'list');
  await page.getByRole('link', { name: 'Next page →' }).click();
  await expect(page).toHaveURL(/[?&]cursor=/);
  await expect(rows).toHaveCount(7);
  await expect(page.getByTestId('issues-page')).toHaveText('Page 2');
  const second = await rows.evaluateAll((each) => each.map((tr) => tr.getAttribute('data-fingerprint')));
  expect(new Set([...first, ...second]).size).toBe(32);
  await atBothWidths(page, SHOTS, 'page-2');
  await page.getByRole('link', { name: '← Previous' }).click();
  await expect(page.getByTestId('issues-page')).toHaveText('Page 1');
  await expect(rows).toHaveCount(25);

  // Search by message.
  await page.getByLabel('Search', { exact: true }).fill('checkout');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/[?&]q=checkout/);
  await expect(rows).toHaveCount(1);
  await expect(row('TypeError: checkout failed')).toBeVisible();
  await atBothWidths(page, SHOTS, 'search');

  // Filter by OS: only what Android sent.
  await page.getByLabel('Search', { exact: true }).fill('');
  await page.getByLabel('OS', { exact: true }).fill('Android');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/[?&]os=Android/);
  await expect(rows).toHaveCount(3);
  await expect(row('TypeError: menu broken')).toBeVisible();
  await expect(table).not.toContainText('checkout failed');
  await atBothWidths(page, SHOTS, 'filter-os');

  // An issue keeps the list's query, and the back button restores the filtered list.
  await page.getByRole('link', { name: 'TypeError: menu broken', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('TypeError: menu broken');
  await expect(page).toHaveURL(/[?&]os=Android/);
  await expect(page.getByRole('link', { name: '← Back to the issues' })).toHaveAttribute('href', /[?&]os=Android/);
  await expect(page.getByTestId('tags-os')).toContainText('Android');
  await page.goBack();
  await expect(page).toHaveURL(/[?&]os=Android/);
  await expect(page.getByLabel('OS', { exact: true })).toHaveValue('Android');
  await expect(rows).toHaveCount(3);

  // Resolve "checkout failed" from the list: it leaves the Unresolved tab, and the Resolved tab has it.
  await page.goto(`${collector.url}/sites/${shop}?range=7d&q=checkout`);
  await row('TypeError: checkout failed').getByRole('button', { name: /^Resolve/ }).click();
  await expect(page.getByTestId('no-issues')).toHaveText('No unresolved issues in this range matching the search and filters.');
  await page.getByRole('link', { name: 'Resolved', exact: true }).click();
  await expect(page).toHaveURL(/[?&]status=resolved/);
  await expect(page.getByLabel('Search', { exact: true })).toHaveValue('checkout');
  await expect(row('TypeError: checkout failed')).toBeVisible();
  await expect(row('TypeError: checkout failed').getByTestId('badge-regressed')).toHaveCount(0);
  await atBothWidths(page, SHOTS, 'resolved');

  // A new occurrence, from a later release: back in Unresolved, regressed.
  await send(collector, shop, WINDOWS, [report('checkout failed', { release: '1.1', session_id: 's-again' })]);
  await page.getByRole('link', { name: 'Unresolved', exact: true }).click();
  await expect(row('TypeError: checkout failed').getByTestId('badge-regressed')).toHaveText('Regressed');
  await expect(row('TypeError: checkout failed').getByTestId('count')).toHaveText('2');
  await atBothWidths(page, SHOTS, 'regressed');

  // The issue page: its status, events and breakdowns; resolve in a release, ignore, unresolve.
  await row('TypeError: checkout failed').getByRole('link', { name: 'TypeError: checkout failed' }).click();
  await expect(page.getByTestId('issue-status')).toHaveText('Unresolved · regressed: it occurred again after being resolved');
  await expect(page.getByTestId('issue-events').locator('tbody')).toHaveCount(2);
  await expect(page.getByTestId('issue-events').locator('tbody').first()).toContainText('1.1');
  await expect(page.locator('details[open] pre.stack')).toHaveText(report('checkout failed').stack);
  await expect(page.getByTestId('tags-release')).toContainText('1.0');
  await expect(page.getByTestId('tags-os')).toContainText('Windows');
  await expect(page.getByTestId('issue-facts')).toContainText('1.1');
  await page.getByLabel('In release (optional)').fill('1.1');
  await page.getByRole('button', { name: 'Resolve', exact: true }).click();
  await expect(page.getByTestId('issue-status')).toHaveText('Resolved · in release 1.1: an occurrence from a later release brings it back');
  await atBothWidths(page, SHOTS, 'issue');
  const stored = async () => (await (await page.request.get(`${collector.url}/api/v1/sites/${shop}/issues/${checkout!.fingerprint}`)).json()) as { status: string; resolved_in: string | null; ignore_until_count: number | null };
  expect(await stored()).toMatchObject({ status: 'resolved', resolved_in: '1.1' });
  await page.getByLabel('Until this many more occurrences (optional)').fill('5');
  await page.getByRole('button', { name: 'Ignore', exact: true }).click();
  await expect(page.getByTestId('issue-status')).toHaveText('Ignored · until 5 more occurrences');
  expect(await stored()).toMatchObject({ status: 'ignored', ignore_until_count: 5, resolved_in: null });
  await page.getByRole('button', { name: 'Unresolve' }).click();
  await expect(page.getByTestId('issue-status')).toHaveText('Unresolved');
  // Over 24 hours the trend is hourly.
  await page.getByRole('link', { name: 'Last 24 hours' }).click();
  await expect(page.getByRole('img', { name: /^Occurrences per hour \(UTC\)/ })).toBeVisible();
  await atBothWidths(page, SHOTS, 'issue-24h');

  expect(await page.evaluate(() => (window as { __violations?: string[] }).__violations)).toEqual([]);
  expect(consoleErrors).toEqual([]);
  test.info().annotations.push({ type: 'screenshots', description: SHOTS });
});
