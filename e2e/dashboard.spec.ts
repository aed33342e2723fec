import { metricValue } from '../dashboard/format';
import { expectedFigures, ingest, screenshots, SCREENSHOTS, signInWithForm } from './dashboardKit';
import { expect, test } from './fixtures';

// Several pages at two widths; the issue page makes three reads where the error group's made one.
test.describe.configure({ timeout: 150_000 });

const STACK = 'TypeError: cart is empty\n    at checkout (https://shop.example/app.js:3:9)\n    at HTMLButtonElement.onclick (https://shop.example/cart:1:1)';

test('a site owner signs in through the form, sees the seeded error group, CSP group and LCP p75 as stored, opens the group, signs out', async ({ page, collector }) => {
  const shop = await collector.addSite('https://shop.example');
  const password = await collector.addUser('owner@shop.example');
  const error = (session: string, page: string, count?: number) => ({
    error_type: 'javascript_error', error_name: 'TypeError', error_message: 'cart is empty', stack: STACK, page_url: page, session_id: session, ...(count ? { count } : {}),
  });
  await ingest(collector, `error-reports/${shop}`, [error('s1', 'https://shop.example/cart'), error('s2', 'https://shop.example/cart', 2), error('s1', 'https://shop.example/pay')]);
  await ingest(collector, `error-reports/${shop}`, { error_type: 'resource_error', error_message: 'logo.png failed' });
  const violation = (blocked: string, directive = 'img-src') => ({ 'csp-report': { 'document-uri': 'https://shop.example/cart', 'violated-directive': directive, 'effective-directive': directive, 'blocked-uri': blocked } });
  for (const blocked of ['https://cdn.example/a.png', 'https://cdn.example/b.png', 'https://cdn.example/c.png']) await ingest(collector, `csp-reports/${shop}`, violation(blocked));
  await ingest(collector, `csp-reports/${shop}`, violation('inline', 'script-src-elem'));
  for (const [i, value] of [1200, 2600, 3100, 900, 4500, 1800, 2200].entries()) {
    await ingest(collector, `performance-sessions/${shop}`, { session_id: `v${i}`, page_url: `https://shop.example/${i % 2 ? 'cart' : ''}`, metrics: { LCP: { value }, CLS: { value: i / 100 } } });
  }
  const expected = await expectedFigures(collector, shop, 'cart is empty');
  // Two page views (sessions) from one client, the test's own requests: one visitor.
  expect(expected).toMatchObject({ count: 4, sessions: 2, visitors: 1, cspImg: 3, lcpSamples: 7 });

  await page.goto(`${collector.url}/`);
  await screenshots(page, 'sign-in');
  await signInWithForm(page, collector.url, 'owner@shop.example', password);
  const cookies = await page.context().cookies();
  expect(cookies.find((cookie) => cookie.name == 'sitebeacon_session')).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
  await expect(page.getByTestId('errors-7d').first()).toBeVisible();
  await screenshots(page, 'overview');

  await page.getByRole('link', { name: shop }).click();
  await expect(page.getByRole('heading', { name: 'Issues' })).toBeVisible();
  const row = page.locator(`tr[data-fingerprint="${expected.fingerprint}"]`);
  await expect(row.getByTestId('count')).toHaveText(String(expected.count));
  await expect(row.getByTestId('visitors')).toHaveText(String(expected.visitors));
  const cspRow = page.getByTestId('csp-groups').getByRole('row').filter({ hasText: 'cdn.example' });
  await expect(cspRow).toContainText('img-src');
  await expect(cspRow.getByRole('cell').last()).toHaveText(String(expected.cspImg));
  await expect(page.getByTestId('p75-LCP')).toHaveText(metricValue('LCP', expected.lcpP75));
  await expect(page.getByTestId('vital-LCP')).toContainText(`${expected.lcpSamples} samples`);
  await screenshots(page, 'site');

  await page.getByRole('link', { name: 'TypeError: cart is empty' }).click();
  await expect(page.getByRole('heading', { name: 'Events' })).toBeVisible();
  // The latest event's stack unfolded; its three reports listed, newest first.
  await expect(page.locator('details[open] pre.stack')).toHaveText(STACK);
  await expect(page.getByTestId('issue-events').locator('tbody')).toHaveCount(3);
  await expect(page.getByTestId('group-totals').getByTestId('count')).toHaveText(String(expected.count));
  await expect(page.getByTestId('tags-page')).toContainText('https://shop.example/cart');
  await screenshots(page, 'error-group');

  // "A link to the suggested policy": the site page's link leads to the setup page's suggestion.
  const { api_key: apiKey } = JSON.parse((await collector.cli('key', 'create', '--json')).stdout) as { api_key: string };
  const created = await fetch(`${collector.url}/api/v1/csp-projects`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
    body: JSON.stringify({ site_key: shop, name: 'Main policy', mode: 'report-only', base_policy: "default-src 'self'" }),
  });
  const project = (await created.json()) as { id: number };
  await page.goto(`${collector.url}/sites/${shop}`);
  await page.getByRole('link', { name: 'The suggested policy for these violations' }).click();
  await expect(page.getByTestId(`suggestion-${project.id}`)).toContainText('https://cdn.example');
  await expect(page.getByTestId('snippet')).toContainText(`data-site-key="${shop}"`);
  await page.getByRole('button', { name: 'Check connectivity from this browser' }).click();
  // One host here (no --ingest-url): checked once, then the test report (e2e/connectivityCheck.spec.ts has two hosts).
  await expect(page.getByTestId('connectivity-status')).toHaveText('Check finished: all 2 passed.');
  await expect(page.getByTestId('connectivity-ingest')).toContainText('Ingest and main host (one host)');
  await screenshots(page, 'setup');

  await page.goto(`${collector.url}/docs`);
  await expect(page.getByRole('cell', { name: '/api/v1/sites/{site_key}/error-groups/{fingerprint}' })).toBeVisible();
  await screenshots(page, 'docs');

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  expect((await page.request.get(`${collector.url}/api/v1/sites/${shop}/summary`)).status()).toBe(401);
  test.info().annotations.push({ type: 'screenshots', description: SCREENSHOTS });
});
