import { mergeTests } from '@playwright/test';
import { expect, test as beaconTest } from '../playwright/index';
import { test as projectTest } from './fixtures';

// Each matcher of sitebeacon/playwright in real Chromium, against pages served on their
// own origin and the fixture's in-process collector. `pages` serves the pages (e2e/fixtures.ts).
const test = mergeTests(beaconTest, projectTest);

/** The message of an assertion that must fail, without colours; an assertion that passes is a test failure. */
const failureOf = async (assertion: Promise<unknown>) => {
  try {
    await assertion;
  } catch (error) {
    return (error as Error).message.replace(/\u001b\[[\d;]*m/g, '');
  }
  throw new Error('the assertion passed; it should have failed');
};

/** `expect` with a short timeout, for assertions expected to fail after retrying. */
const soon = expect.configure({ timeout: 1_500 });

const CLEAN = `<!doctype html><title>clean</title><h1>Clean</h1><p>A paragraph with enough text to be the largest contentful paint of this page.</p>`;

test('a clean page passes toHaveNoErrors, toHaveNoCspViolations and toHaveVitals', async ({ page, pages, beacon }) => {
  pages.route('/clean', CLEAN);
  await page.goto(`${pages.origin}/clean`);
  await expect(beacon).toHaveNoErrors();
  await expect(beacon).toHaveNoCspViolations();
  await expect(beacon).toHaveVitals({ FCP: { below: 10_000 }, LCP: { below: 10_000 }, CLS: { below: 0.1 }, TTFB: { below: 10_000 } });
  // What the matchers read is what the collector stored, through its read API.
  const [session] = await beacon.sessions();
  expect(session).toMatchObject({ site_key: beacon.siteKey, page_url: `${pages.origin}/clean` });
  expect(beacon.problems()).toEqual([]);
});

test('a throwing page fails toHaveNoErrors with the error, its source and line, and passes toHaveReceivedError', async ({ page, pages, beacon }) => {
  pages.route('/cart', `<!doctype html><title>cart</title><button id="checkout">Checkout</button><script src="/checkout.js" defer></script>`);
  await page.goto(`${pages.origin}/cart`);
  await page.click('#checkout');
  await expect(beacon).toHaveReceivedError({ message: 'cart is empty', type: 'javascript_error' });
  await expect(beacon).toHaveReceivedError({ message: /^cart is empty$/ });
  const message = await failureOf(soon(beacon).toHaveNoErrors());
  expect(message).toContain('expect(beacon).toHaveNoErrors()');
  expect(message).toContain('Expected: no error reports');
  expect(message).toContain(
    'Received: 1 error report\n' +
      '  1. TypeError: cart is empty\n' +
      `     type javascript_error, source ${pages.origin}/checkout.js:3:9, page ${pages.origin}/cart`,
  );
});

test('toHaveReceivedError waits for the report, and fails listing what arrived instead', async ({ page, pages, beacon }) => {
  pages.route(
    '/pay',
    `<!doctype html><title>pay</title><script>setTimeout(() => Promise.reject(new Error('payment declined')), 300)</script>`,
  );
  await page.goto(`${pages.origin}/pay`);
  // Not yet thrown when asked: the matcher retries until it is stored.
  await expect(beacon).toHaveReceivedError({ message: 'payment declined', type: 'unhandled_rejection' });
  const message = await failureOf(soon(beacon).toHaveReceivedError({ message: 'cart is empty' }));
  expect(message).toContain('Expected: an error report with message "cart is empty"');
  expect(message).toContain('Received: 1 error report, none matching\n  1. Error: payment declined\n     type unhandled_rejection');
  expect(message).toContain('Timeout: 1500ms');
  // `.not` fails at once on a report already stored, naming it.
  const not = await failureOf(expect(beacon).not.toHaveReceivedError({ type: 'unhandled_rejection' }));
  expect(not).toContain('Expected: not an error report with type unhandled_rejection');
  expect(not).toContain('Received: 1 matching error report');
});

test('a page with a CSP violation: toHaveReceivedCspViolation passes, toHaveNoCspViolations lists it', async ({ page, pages, beacon }) => {
  pages.route('/shop', `<!doctype html><title>shop</title><p>Shop</p><img src="https://blocked.example/pixel.gif" alt="">`, {
    // The page's policy allows the collector (connect-src), as a page that is monitored must.
    'content-security-policy': `default-src 'self'; img-src 'self'; connect-src 'self' ${beacon.collectorUrl}`,
  });
  await page.goto(`${pages.origin}/shop`);
  await expect(beacon).toHaveReceivedCspViolation({ directive: 'img-src', blockedUri: 'https://blocked.example/pixel.gif' });
  await expect(beacon).not.toHaveReceivedCspViolation({ directive: 'script-src' });
  const message = await failureOf(soon(beacon).toHaveNoCspViolations());
  expect(message).toContain('Expected: no CSP violations');
  expect(message).toContain(
    `Received: 1 CSP violation\n  1. img-src blocked https://blocked.example/pixel.gif\n     source ${pages.origin}/shop:1:`,
  );
  expect(message).toContain(`, page ${pages.origin}/shop, enforce`);
  const unmatched = await failureOf(soon(beacon).toHaveReceivedCspViolation({ directive: 'script-src-elem' }));
  expect(unmatched).toContain('Expected: a CSP violation with directive script-src-elem');
  expect(unmatched).toContain('Received: 1 CSP violation, none matching');
});

test.describe('a page whose CSP blocks the collector', () => {
  // The problem is named by the failed matchers; the fixture's end-of-test check does not name it again.
  test('fails every matcher with what blocks it and the fix, even toHaveNoErrors on a page that reported nothing', async ({ page, pages, beacon }) => {
    pages.route('/strict', `${CLEAN}<script src="/checkout.js" defer></script><button id="checkout">Checkout</button>`, {
      'content-security-policy': "default-src 'self'",
    });
    await page.goto(`${pages.origin}/strict`);
    const collector = new URL(beacon.collectorUrl).origin;
    const message = await failureOf(expect(beacon).toHaveNoErrors());
    expect(message).toContain("The beacon could not report everything, so the collector's records cannot answer this assertion:");
    expect(message).toContain(
      `the page ${pages.origin}/strict cannot report: its Content-Security-Policy blocks the collector (${collector}/api/test-connectivity violates "connect-src"). ` +
        `Allow ${collector} in connect-src (policy: default-src 'self')`,
    );
    // An error the page throws cannot arrive: `.not` does not pass in silence either.
    await page.click('#checkout');
    expect(await failureOf(expect(beacon).not.toHaveReceivedError())).toContain('blocks the collector');
    // Each blocked send is listed (the connectivity check first; a performance session's send may
    // follow, depending on when the beacon flushes), every one of them as this page's block.
    const problems = beacon.problems();
    expect(problems[0]).toMatchObject({ kind: 'blocked', page: `${pages.origin}/strict`, collector, blockedUri: `${collector}/api/test-connectivity` });
    for (const problem of problems) expect(problem).toMatchObject({ kind: 'blocked', page: `${pages.origin}/strict`, collector });
  });
});

test("the beacon's own error on a hostile page fails the matchers, named, instead of toHaveNoErrors passing", async ({ page, pages, beacon }) => {
  // The page breaks what the beacon needs to queue a report: the beacon contains the error (the page
  // never sees it), and its error report is lost. The fixture's build tells the test.
  pages.route(
    '/hostile',
    `<!doctype html><p>hostile</p><script>JSON.stringify = () => { throw new Error('hostile page broke JSON.stringify'); };
     setTimeout(() => { throw new Error('checkout broke'); });</script>`,
  );
  await page.goto(`${pages.origin}/hostile`);
  const message = await failureOf(expect(beacon).toHaveNoErrors());
  expect(message).toContain(`the beacon itself failed on the page ${pages.origin}/hostile: Error: hostile page broke JSON.stringify`);
  expect(message).toContain('Received: no error reports');
});

test('toHaveVitals fails naming the metric, its value and page; a missing one says why; an interaction brings INP', async ({ page, pages, beacon }) => {
  pages.route('/shop', `${CLEAN}<button id="slow">slow</button><script src="/playground.js" defer></script>`);
  await page.goto(`${pages.origin}/shop`);
  const tooStrict = await failureOf(soon(beacon).toHaveVitals({ LCP: { below: 1 } }));
  expect(tooStrict).toContain('Expected: LCP below 1 ms');
  expect(tooStrict).toMatch(new RegExp(`Received: 1 page view\\n {2}LCP: \\d+ ms on ${pages.origin}/shop, not below 1 ms`));
  const noInteraction = await failureOf(soon(beacon).toHaveVitals({ INP: { below: 500 } }));
  expect(noInteraction).toContain('INP: not received (INP is measured from interactions: click, tap or type on the page before asserting it)');
  expect(noInteraction).toContain('Timeout: 1500ms');
  await page.click('#slow');
  await expect(beacon).toHaveVitals({ INP: { below: 10_000 } });
  const [session] = await beacon.sessions();
  expect(session!.metrics.INP!.value).toBeGreaterThanOrEqual(100);
});

test.describe('a browser that cannot measure CLS (as Firefox)', () => {
  const withoutLayoutShift = test.extend({
    // Runs before the beacon's init script (the beacon fixture depends on the context): the page's
    // PerformanceObserver lists no layout-shift, as Firefox's does, so web-vitals reports no CLS.
    context: async ({ context }, use) => {
      await context.addInitScript(() => {
        const types = PerformanceObserver.supportedEntryTypes.filter((type) => type != 'layout-shift');
        Object.defineProperty(PerformanceObserver, 'supportedEntryTypes', { get: () => types });
      });
      await use(context);
    },
  });

  withoutLayoutShift('toHaveVitals says CLS was not checked instead of failing or passing it in silence', async ({ page, pages, beacon }) => {
    pages.route('/clean', CLEAN);
    await page.goto(`${pages.origin}/clean`);
    await expect(beacon).toHaveVitals({ CLS: { below: 0.1 }, FCP: { below: 10_000 } });
    expect(withoutLayoutShift.info().annotations).toContainEqual({
      type: 'sitebeacon',
      description: 'CLS not checked: chromium cannot measure it (no "layout-shift" performance entries)',
    });
    // The metric really was not measured: the matcher did not skip something that was there.
    expect((await beacon.sessions())[0]!.metrics.CLS).toBeUndefined();
    // Where a metric is measurable, a bound it misses still fails.
    expect(await failureOf(soon(beacon).toHaveVitals({ CLS: { below: 0.1 }, FCP: { below: 0.001 } }))).toContain('CLS not checked');
  });
});

test.describe('options', () => {
  test.use({
    beaconOptions: {
      capture: ['errors'],
      // Runs in the page: drops the errors the team decided are noise.
      beforeSend: (report, kind) => (kind == 'error' && String(report.error_message).startsWith('noise:') ? null : report),
    },
  });

  test('capture and beforeSend shape what the page reports', async ({ page, pages, beacon }) => {
    pages.route(
      '/noisy',
      `<!doctype html><title>noisy</title><p>Noisy</p><img src="https://blocked.example/pixel.gif" alt="">
       <script>setTimeout(() => { throw new Error('noise: a widget'); }); setTimeout(() => { throw new Error('checkout broke'); }, 50);</script>`,
      { 'content-security-policy': `default-src 'self'; script-src 'unsafe-inline'; connect-src ${beacon.collectorUrl}` },
    );
    await page.goto(`${pages.origin}/noisy`);
    await expect(beacon).toHaveReceivedError({ message: 'checkout broke' });
    await expect(beacon).not.toHaveReceivedError({ message: 'noise:' });
    // No `csp` capture: the violation of the blocked image is not reported (its failed load is an error).
    await expect(beacon).toHaveNoCspViolations();
    await expect(beacon).toHaveReceivedError({ type: 'resource_error', message: 'img failed to load' });
    expect(await beacon.sessions()).toEqual([]);
  });
});

test('a page that also carries its own sitebeacon snippet reports to the test collector once', async ({ page, pages, beacon }) => {
  // The real script tag, configured for production: it finds the fixture's beacon running and does nothing.
  pages.route(
    '/snippet',
    `<!doctype html><script src="${beacon.collectorUrl}/beacon.js" data-site-key="production" data-ingest-origin="https://production.example"></script>
     <script>setTimeout(() => window.sitebeacon.captureError(new Error('caught by the app')), 50)</script>`,
  );
  await page.goto(`${pages.origin}/snippet`);
  // window.sitebeacon is still the fixture's: had the snippet replaced it, this would have gone to production.example.
  await expect(beacon).toHaveReceivedError({ message: 'caught by the app', type: 'manual' });
  expect(await beacon.errors()).toHaveLength(1);
  expect(beacon.problems()).toEqual([]);
});

test.describe('a page that loaded before the beacon fixture was set up', () => {
  const visitedFirst = test.extend<{ visited: string }>({
    // Set up before `beacon` (listed first below): the page loads without the init script.
    visited: async ({ page, pages }, use) => {
      pages.route('/early', CLEAN);
      await page.goto(`${pages.origin}/early`);
      await use(`${pages.origin}/early`);
    },
  });

  visitedFirst('fails the matchers: it has no beacon, so an empty collector proves nothing', async ({ visited, beacon }) => {
    const message = await failureOf(expect(beacon).toHaveNoErrors());
    expect(message).toContain(`the page ${visited} has no beacon: it loaded before the \`beacon\` fixture was set up`);
  });
});
