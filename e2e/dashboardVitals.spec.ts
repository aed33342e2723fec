import { signInWithForm } from './dashboardKit';
import { expect, test, type Collector } from './fixtures';

// The site page's Web Vitals by device and its pages by route (docs/vitals.md, "By device" and
// "Routes"): a device switch kept in the URL, routes from the site's patterns and the default rules.
test.describe.configure({ timeout: 90_000 });

const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
const WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/** One page view's LCP, as the browser with `userAgent` sends it. */
const view = async (collector: Collector, site: string, userAgent: string, id: string, url: string, lcp: number) => {
  const body = JSON.stringify({ session_id: id, page_url: url, metrics: { LCP: { value: lcp } } });
  const response = await fetch(`${collector.url}/api/performance-sessions/${site}`, { method: 'POST', headers: { 'content-type': 'application/json', 'user-agent': userAgent }, body });
  expect(response.status, await response.clone().text()).toBe(202);
};

test('a device switch kept in the URL reads the Web Vitals and pages of one kind of device; pages are routes', async ({ page, collector }) => {
  const shop = await collector.addSite('https://shop.example');
  const password = await collector.addUser('owner@shop.example');
  await collector.cli('site', 'routes', '--site', shop, '--add', '/blog/:slug');
  await view(collector, shop, IPHONE, 'm1', 'https://shop.example/products/1?ref=mail', 4200);
  await view(collector, shop, IPHONE, 'm2', 'https://shop.example/products/2#reviews', 3900);
  await view(collector, shop, IPHONE, 'm3', 'https://shop.example/blog/hello-world', 2600);
  await view(collector, shop, WINDOWS, 'd1', 'https://shop.example/products/3', 1200);
  await view(collector, shop, WINDOWS, 'd2', 'https://shop.example/blog/spring-sale', 900);

  await signInWithForm(page, collector.url, 'owner@shop.example', password);
  await page.goto(`${collector.url}/sites/${shop}`);
  const pages = page.getByTestId('pages');
  const routes = () => pages.locator('tbody tr').evaluateAll((rows) => rows.map((row) => [row.querySelector('th')!.firstChild!.textContent, row.querySelector('td')!.textContent]));
  await expect(page.getByTestId('vital-LCP')).toContainText('5 samples');
  expect(await routes()).toEqual([['/products/:id', '3'], ['/blog/:slug', '2']]);
  // One page URL of each route under it; a URL is text, never a link.
  await expect(pages).toContainText('https://shop.example/products/1?ref=mail');
  await expect(pages.locator('a')).toHaveCount(0);

  const devices = page.getByTestId('device-switch');
  await expect(devices.getByRole('link', { name: 'All devices' })).toHaveAttribute('aria-current', 'page');
  await devices.getByRole('link', { name: 'Mobile' }).click();
  await expect(page).toHaveURL(/[?&]vitals_device=mobile/);
  await expect(devices.getByRole('link', { name: 'Mobile' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByTestId('vital-LCP')).toContainText('3 samples');
  await expect(page.getByTestId('p75-LCP')).toHaveText('4.20 s');
  expect(await routes()).toEqual([['/products/:id', '2'], ['/blog/:slug', '1']]);

  // Kept by a reload and by another range.
  await page.reload();
  await expect(page.getByTestId('vital-LCP')).toContainText('3 samples');
  await page.getByRole('link', { name: 'Last 30 days' }).click();
  await expect(page).toHaveURL(/range=30d/);
  await expect(page).toHaveURL(/vitals_device=mobile/);
  await expect(page.getByTestId('vital-LCP')).toContainText('3 samples');

  await devices.getByRole('link', { name: 'Desktop' }).click();
  await expect(page.getByTestId('vital-LCP')).toContainText('2 samples');
  expect(await routes()).toEqual([['/blog/:slug', '1'], ['/products/:id', '1']]);
  await devices.getByRole('link', { name: 'Tablet' }).click();
  await expect(page.getByTestId('vital-LCP')).toContainText('No samples in this range.');
  await expect(page.getByText('No page views with Web Vitals in this range.')).toBeVisible();
  await devices.getByRole('link', { name: 'All devices' }).click();
  await expect(page).not.toHaveURL(/vitals_device/);
  await expect(page.getByTestId('vital-LCP')).toContainText('5 samples');
});
