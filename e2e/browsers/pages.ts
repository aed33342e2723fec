// The pages the cross-browser cases load, on the page origin (harness.ts).

/** The policy of the fixtures' page (collector/fixtures/README.md). */
export const NATIVE_POLICY = "default-src 'self'; img-src 'self'; script-src 'self' 'unsafe-inline'";

/** The fixtures' page's own violations: an image, `eval`, an inserted script, all blocked. */
const VIOLATING_SCRIPT = `<img src="https://cdn.example.net/x.png" alt="">
<script>
  try { eval('1'); } catch (error) {}
  const script = document.createElement('script');
  script.src = 'https://ads.example.org/a.js';
  document.body.append(script);
</script>`;

/** What each browser must report for VIOLATING_SCRIPT: [effective directive, blocked URI]. */
export const NATIVE_VIOLATIONS = [
  ['img-src', 'https://cdn.example.net/x.png'],
  ['script-src', 'eval'],
  ['script-src-elem', 'https://ads.example.org/a.js'],
];

/** The fixtures' page, without the beacon: only the browser's own reports. */
export const NATIVE_PAGE = `<!doctype html><html lang="en"><title>cart</title><h1>Cart</h1>${VIOLATING_SCRIPT}</html>`;

/**
 * The fixtures' `beacon.json` page: the beacon loaded before the page's own script (not async, so
 * it sees the violations), and the same violations, so each is reported by the beacon and by the
 * browser itself.
 *
 * @example
 * world.route('/both', BOTH_PAGE(world.collectorOrigin, siteKey), { 'content-security-policy': policy });
 */
export const BOTH_PAGE = (collector: string, siteKey: string) =>
  `<!doctype html><html lang="en"><title>cart</title>
<script src="${collector}/beacon.js" data-site-key="${siteKey}" data-ingest-origin="${collector}"></script>
<h1>Cart</h1>${VIOLATING_SCRIPT}</html>`;

/**
 * The beacon e2e tests' page (e2e/pages/playground.js does what each button says), with the collector's snippet.
 *
 * @example
 * world.route('/shop/error', shopPage(world.collectorOrigin, siteKey), { 'content-security-policy': policy });
 */
export const shopPage = (collector: string, siteKey: string) => `<!doctype html><html lang="en"><title>shop</title>
<script src="${collector}/beacon.js" data-site-key="${siteKey}" data-ingest-origin="${collector}" async></script>
<h1>Shop</h1><p>The largest paragraph on this page, for LCP: it has enough text to be the largest contentful element.</p>
<button id="throw">throw</button><button id="reject">reject</button><button id="blocked-image">blocked image</button>
<button id="shift">shift</button><button id="slow">slow</button>
<script src="/playground.js" defer></script></html>`;

/**
 * In the page: resolves with the types among `types` (a layout shift, an interaction) for which
 * the browser has recorded an entry, at once for a type it does not support, after 10 s at most,
 * and once web-vitals has handled them. The test waits on that rather than sleeping.
 *
 * @example
 * await browser.evaluate<string[]>(entriesRecorded(['layout-shift', 'event'])); // ['layout-shift', 'event'] in Chromium
 */
export const entriesRecorded = (types: string[]) => `
  const wanted = ${JSON.stringify(types)}.filter((type) => PerformanceObserver.supportedEntryTypes.includes(type));
  const recorded = [];
  const all = Promise.all(wanted.map((type) => new Promise((resolve) => {
    new PerformanceObserver((list, observer) => {
      // For 'event', the slow click's entry (its handler runs 120 ms), not an earlier quick one.
      if (list.getEntries().some((entry) => type != 'event' || entry.duration >= 100)) { observer.disconnect(); recorded.push(type); resolve(); }
    }).observe({ type, buffered: true, ...(type == 'event' ? { durationThreshold: 16 } : {}) });
  })));
  await Promise.race([all, new Promise((resolve) => setTimeout(resolve, 10000))]);
  // web-vitals handles event entries in an idle callback queued by its observer, which was
  // notified before ours: one idle callback of ours comes after it. Headless Chromium starts no
  // idle period after an input until a frame is asked for, hence the requestAnimationFrame.
  await new Promise((resolve) => {
    requestAnimationFrame(() => (self.requestIdleCallback || setTimeout)(resolve));
    setTimeout(resolve, 5000);
  });
  return recorded;`;
