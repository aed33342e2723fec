import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, type Page } from '@playwright/test';
import { p75Rank } from '../collector/core/vitals';
import type { Collector } from './fixtures';

/** Where the dashboard's screenshots land: test-results/dashboard/NAME-WIDTH.png (kept after the run). */
export const SCREENSHOTS = fileURLToPath(new URL('../test-results/dashboard/', import.meta.url));

/** Phone and desktop widths the dashboard must be readable at (docs/dashboard.md, "Pages and ranges"). */
export const WIDTHS = [360, 1440] as const;

/** Screenshots of the current page at each width, full page. */
export const screenshots = async (page: Page, name: string) => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    // Charts resize on the next frame.
    await page.waitForTimeout(150);
    await page.screenshot({ path: `${SCREENSHOTS}${name}-${width}.png`, fullPage: true });
    // At any width the page never scrolls sideways: long strings wrap, wide tables scroll inside their box.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
};

/**
 * Full-page screenshots at 1440 and 390 px into `folder` (NAME-WIDTH.png, kept after the run); at
 * neither does the page scroll sideways.
 */
export const atBothWidths = async (page: Page, folder: string, name: string) => {
  mkdirSync(folder, { recursive: true });
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.waitForTimeout(200);
    await page.screenshot({ path: `${folder}${name}-${width}.png`, fullPage: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth), `${name} at ${width} px scrolls sideways`).toBeLessThanOrEqual(width);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
};

/** Signs in through the form, as a person does. */
export const signInWithForm = async (page: Page, url: string, email: string, password: string) => {
  await page.goto(`${url}/`);
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Sites' })).toBeVisible();
};

/**
 * A desktop Chrome's user agent. Reports come from browsers: Node's own user agent ("node") is a
 * bot's, and a bot's reports are left out of the issues (docs/issues.md, "Bots").
 */
export const BROWSER_USER_AGENT = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/** POSTs reports to the collector as a browser's beacon would, without an Origin, and checks each was accepted. */
export const ingest = async (collector: Collector, path: string, body: unknown, method = 'POST') => {
  const headers = { 'content-type': 'application/json', 'user-agent': BROWSER_USER_AGENT };
  const response = await fetch(`${collector.url}/api/${path}`, { method, headers, body: JSON.stringify(body) });
  expect(response.status, await response.clone().text()).toBeLessThan(300);
};

/** What the dashboard must show, computed directly from what the collector stored (`sitebeacon export`). */
export const expectedFigures = async (collector: Collector, siteKey: string, message: string) => {
  const errors = (await collector.exported(siteKey, 'errors')).filter((report) => report.error_message == message);
  const csp = await collector.exported(siteKey, 'csp');
  const sessions = await collector.exported(siteKey, 'performance');
  const lcp = sessions.map((session) => (session.metrics as Record<string, { value: number }>).LCP?.value).filter((value): value is number => value !== undefined);
  lcp.sort((a, b) => a - b);
  return {
    fingerprint: errors[0]!.fingerprint as string,
    count: errors.reduce((sum, report) => sum + ((report.count as number | undefined) ?? 1), 0),
    sessions: new Set(errors.map((report) => report.session_id).filter(Boolean)).size,
    // Distinct (UTC day, visitor) pairs (docs/visitors.md).
    visitors: new Set(errors.filter((report) => report.visitor).map((report) => `${String(report.received_at).slice(0, 10)} ${report.visitor}`)).size,
    cspImg: csp.filter((report) => report.effective_directive == 'img-src' && report.blocked_host == 'cdn.example').length,
    lcpP75: lcp[p75Rank(lcp.length)]!,
    lcpSamples: lcp.length,
  };
};
