import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { ingest, signInWithForm } from './dashboardKit';
import { expect, test } from './fixtures';

// A site owner reads the dashboard on a phone as on a desktop (docs/dashboard.md, "Pages and ranges").
test.describe.configure({ timeout: 90_000 });

/** Where this spec's screenshots land: test-results/dashboard-phone/NAME-WIDTH.png (kept after the run). */
const SHOTS = fileURLToPath(new URL('../test-results/dashboard-phone/', import.meta.url));
const PHONE = 390;
const DESKTOP = 1440;
const NAME = 'Shop <b>& "Café"</b>';

/** Every element whose content is wider than its box (a cut number, a table that scrolls sideways), described. */
const overflowing = (page: Page) =>
  page.evaluate(() => {
    const found: string[] = [];
    for (const element of document.querySelectorAll('body *')) {
      // Hidden on purpose: a visually hidden caption, a stacked table's headings kept for screen readers.
      if (element.closest('.visually-hidden, table.stack thead, .skip')) continue;
      const style = getComputedStyle(element);
      if (style.display == 'inline' || style.display == 'none' || !element.clientWidth) continue;
      if (element.scrollWidth > element.clientWidth) {
        found.push(`${element.tagName.toLowerCase()}.${element.getAttribute('class') ?? ''} ${element.scrollWidth} > ${element.clientWidth}: ${element.textContent?.slice(0, 60)}`);
      }
    }
    return found;
  });

/** The texts of the elements matched that take more than one line (a method cut as "POS T"). */
const splitOverLines = (page: Page, selector: string) =>
  page.evaluate((selector) => {
    const split: string[] = [];
    for (const element of document.querySelectorAll(selector)) {
      const range = document.createRange();
      range.selectNodeContents(element);
      const tops = new Set([...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top)));
      if (tops.size > 1) split.push(element.textContent ?? '');
    }
    return split;
  }, selector);

/**
 * Full-page screenshots at 1440 and 390 px; at 390, nothing overflows its box and the page never
 * scrolls sideways. The page's CSP refused nothing (no inline style, no inline script).
 */
const atBothWidths = async (page: Page, name: string, checks: (width: number) => Promise<void> = async () => {}) => {
  mkdirSync(SHOTS, { recursive: true });
  for (const width of [DESKTOP, PHONE]) {
    await page.setViewportSize({ width, height: 900 });
    // Charts resize on the next frame.
    await page.waitForTimeout(200);
    await page.screenshot({ path: `${SHOTS}${name}-${width}.png`, fullPage: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth), `${name} at ${width} px scrolls sideways`).toBeLessThanOrEqual(width);
    if (width == PHONE) expect(await overflowing(page), `${name} at ${width} px`).toEqual([]);
    await checks(width);
  }
  await page.setViewportSize({ width: DESKTOP, height: 900 });
  expect(await page.evaluate(() => (window as { __violations?: string[] }).__violations)).toEqual([]);
};

test('at 390 px every page fits: tables become cards, no number is cut, methods stay whole, the collector\'s own sites have their own section', async ({ page, collector }) => {
  const shop = (JSON.parse((await collector.cli('site', 'add', '--origin', 'https://shop.example', '--name', NAME, '--json')).stdout) as { site_key: string }).site_key;
  const password = await collector.addUser('owner@shop.example');
  const error = (page: string, count: number) => ({ error_type: 'javascript_error', error_name: 'TypeError', error_message: 'cart is empty', page_url: page, session_id: page, count });
  await ingest(collector, `error-reports/${shop}`, [error('https://shop.example/cart', 6000), error('https://shop.example/pay', 500)]);
  for (const blocked of ['https://cdn.example/a.png', 'https://fonts.example/b.woff2']) {
    await ingest(collector, `csp-reports/${shop}`, { 'csp-report': { 'document-uri': 'https://shop.example/', 'violated-directive': 'script-src-elem', 'effective-directive': 'script-src-elem', 'blocked-uri': blocked } });
  }
  for (let i = 0; i < 12; i++) {
    const url = `https://shop.example/products/${'seasonal-collection/'.repeat(1 + (i % 3))}item-${i}?utm_source=newsletter&utm_campaign=spring-sale`;
    await ingest(collector, `performance-sessions/${shop}`, { session_id: `v${i}`, page_url: url, metrics: { LCP: { value: 1200 + 900 * i }, INP: { value: 80 + 40 * i }, CLS: { value: i / 50 } } });
  }
  await page.addInitScript(() => {
    const violations: string[] = [];
    (window as { __violations?: string[] }).__violations = violations;
    document.addEventListener('securitypolicyviolation', (event) => violations.push(`${event.effectiveDirective} ${event.blockedURI}`));
  });
  await signInWithForm(page, collector.url, 'owner@shop.example', password);

  // The sites list: the owner's site first, the collector's own below it in a section of their own.
  // Every row's figures drawn (three sites: the owner's and the collector's two) before the screenshots.
  await expect(page.getByTestId('errors-7d')).toHaveCount(3);
  await expect(page.getByTestId('own-sites')).toContainText(NAME);
  await expect(page.getByTestId('own-sites')).not.toContainText('sitebeacon dashboard');
  await expect(page.getByTestId('own-sites')).not.toContainText('Default site');
  const own = page.getByTestId('collector-sites');
  await expect(own.getByRole('heading', { name: 'This collector' })).toBeVisible();
  await expect(own.getByRole('link', { name: 'sitebeacon dashboard' })).toBeVisible();
  await expect(own.getByRole('link', { name: 'Default site' })).toBeVisible();
  await expect(own).not.toContainText(NAME);
  // The owner's site comes first on the page.
  expect(await page.evaluate(() => document.querySelector('[data-testid="own-sites"]')!.compareDocumentPosition(document.querySelector('[data-testid="collector-sites"]')!) & Node.DOCUMENT_POSITION_FOLLOWING)).toBeTruthy();
  await atBothWidths(page, 'sites');

  // A site page: one number format, and the pages table keeps its numbers on a phone.
  await page.getByRole('link', { name: NAME }).click();
  await expect(page.getByTestId('pages')).toBeVisible();
  await expect(page.getByTestId('error-groups').getByTestId('count')).toHaveText('6,500');
  await expect(page.getByTestId('vital-LCP')).toContainText('12 samples');
  await atBothWidths(page, 'site', async (width) => {
    const cells = page.getByTestId('pages').locator('td.num');
    expect(await cells.count()).toBe(12 * 4);
    for (const cell of await cells.all()) {
      const box = (await cell.boundingBox())!;
      expect(box.width, `a number of the pages table at ${width} px`).toBeGreaterThan(0);
      expect(box.x + box.width).toBeLessThanOrEqual(width);
    }
    if (width == PHONE) await expect(page.getByTestId('pages').locator('td.num').first()).toHaveAttribute('data-label', 'Views');
  });

  // An issue's page.
  await page.getByRole('link', { name: 'TypeError: cart is empty' }).click();
  await expect(page.getByRole('heading', { name: 'Events' })).toBeVisible();
  await expect(page.getByTestId('tags-page')).toBeVisible();
  await expect(page.getByTestId('group-totals').getByTestId('count')).toHaveText('6,500');
  await atBothWidths(page, 'error');

  // The API reference: no method and no column heading broken inside a word.
  await page.goto(`${collector.url}/docs`);
  await expect(page.getByRole('cell', { name: '/api/v1/sites/{site_key}/error-groups/{fingerprint}' })).toBeVisible();
  await atBothWidths(page, 'docs', async (width) => {
    expect(await page.locator('td.method').count()).toBeGreaterThan(10);
    expect(await splitOverLines(page, 'td.method'), `methods at ${width} px`).toEqual([]);
    if (width == DESKTOP) expect(await splitOverLines(page, 'table.reference thead th'), 'column headings').toEqual([]);
  });
  test.info().annotations.push({ type: 'screenshots', description: SHOTS });
});
