import { createServer } from 'node:http';
import { expect, test as sitebeaconTest } from 'sitebeacon/playwright';

/** The team's site under test: two pages on a local server. */
const test = sitebeaconTest.extend<{}, { shop: string }>({
  shop: [
    async ({}, use) => {
      const pages: Record<string, string> = {
        '/': '<!doctype html><title>shop</title><h1>Shop</h1><p>Everything in stock, a paragraph long enough to paint.</p>',
        '/checkout':
          '<!doctype html><title>checkout</title><button id="pay">Pay</button>' +
          "<script>document.getElementById('pay').addEventListener('click', () => { throw new TypeError('payment form is broken'); });</script>",
      };
      const server = createServer((req, res) => {
        const body = pages[new URL(req.url ?? '/', 'http://x').pathname];
        res.writeHead(body ? 200 : 404, { 'content-type': 'text/html' }).end(body ?? 'not found');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      await use(`http://127.0.0.1:${(server.address() as { port: number }).port}`);
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
    { scope: 'worker' },
  ],
});

// The README's option example: drops a known browser noise (there is none here; it must compile and run).
test.use({ beaconOptions: { beforeSend: (report) => (String(report.error_message).includes('ResizeObserver') ? null : report) } });

// The README's example, as a QA team writes it.
test('the home page has no errors and no CSP violations', async ({ page, beacon, shop }) => {
  await page.goto(shop);
  await expect(beacon).toHaveNoErrors();
  await expect(beacon).toHaveNoCspViolations();
  await expect(beacon).toHaveVitals({ LCP: { below: 10_000 }, CLS: { below: 0.1 } });
});

// Fails on purpose: the outer test checks that its message names the error.
test('the checkout has no errors', async ({ page, beacon, shop }) => {
  await page.goto(`${shop}/checkout`);
  await page.getByRole('button', { name: 'Pay' }).click();
  await expect(beacon).toHaveNoErrors();
});

test('the checkout reports its broken payment form', async ({ page, beacon, shop }) => {
  await page.goto(`${shop}/checkout`);
  await page.getByRole('button', { name: 'Pay' }).click();
  await expect(beacon).toHaveReceivedError({ message: 'payment form is broken', type: 'javascript_error' });
});
