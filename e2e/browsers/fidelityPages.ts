// The pages of the fidelity cases (fidelityCases.ts): each carries the generated snippet, the
// early-capture stub first (docs/early-capture.md), under an enforced policy of the setup's
// csp_sources; the page's own inline scripts are allowed by a nonce, since a hash in script-src
// turns 'unsafe-inline' off (CSP3, "Does a source list allow all inline behavior for type?").
import type { SiteSetup } from './harness';

const NONCE = 'c2l0ZWJlYWNvbi1lMmU';

/**
 * The enforced policy: the setup's sources for the snippet, the nonce for the page's scripts, and
 * images from the page's own origin only (`img-src 'self'`).
 *
 * @example
 * world.route('/early', earlyPage(setup, 'throw'), { 'content-security-policy': fidelityPolicy(setup) });
 */
export const fidelityPolicy = (setup: SiteSetup) =>
  [
    "default-src 'self'",
    `script-src 'self' 'nonce-${NONCE}' ${setup.csp_sources['script-src'].join(' ')}`,
    `connect-src ${setup.csp_sources['connect-src'].join(' ')}`,
    "img-src 'self'",
  ].join('; ');

/** What goes wrong in the page's first inline script, before the (held back) beacon has arrived. */
export type EarlyTrouble = 'throw' | 'reject' | 'blocked-image';

/** A markup image the policy blocks: an `img-src` violation, and a failed load. */
export const BLOCKED_IMAGE = 'https://blocked.example/early-banner.png';

const EARLY_SCRIPT: Record<EarlyTrouble, string> = {
  throw: "window.troubleAt = Date.now(); throw new TypeError('settings is undefined');",
  reject: "window.troubleAt = Date.now(); Promise.reject(new Error('config failed to load'));",
  'blocked-image': 'window.troubleAt = Date.now();',
};

/**
 * The snippet in the head, then the page's first script, which fails at once: by then the beacon
 * has not arrived. The first script also records when the beacon's response ended (Resource
 * Timing), as `window.beaconArrivedAt`, on the same clock as `Date.now()`.
 *
 * @example
 * world.route('/early/throw', earlyPage(setup, 'throw'), { 'content-security-policy': fidelityPolicy(setup) });
 */
export const earlyPage = (setup: SiteSetup, trouble: EarlyTrouble) => `<!doctype html><html lang="en"><head><title>early ${trouble}</title>
${setup.snippet}
<script nonce="${NONCE}">
  document.querySelector('script[data-site-key]').addEventListener('load', () => {
    const entry = performance.getEntriesByName(${JSON.stringify(setup.beacon_url)})[0];
    window.beaconArrivedAt = entry ? performance.timeOrigin + entry.responseEnd : Date.now();
  });
</script>
<script nonce="${NONCE}">${EARLY_SCRIPT[trouble]}</script>
</head><body><h1>Early</h1>${trouble == 'blocked-image' ? `<img src="${BLOCKED_IMAGE}" alt="banner">` : ''}</body></html>`;

/** The buttons of the after-load page, each doing what its id says. */
export const LATE_SCRIPT = `
  const on = (id, run) => document.getElementById(id).addEventListener('click', run);
  on('throw-string', () => { throw 'stringError'; });
  on('throw-object', () => { throw { code: 'E_STOCK', retryable: false }; });
  on('reject-image', () => {
    new Promise((_, reject) => { const image = new Image(); image.onerror = reject; image.src = '/missing.png'; });
  });
  on('throw-cause', () => {
    throw new Error('checkout failed', { cause: new TypeError('price is missing', { cause: new RangeError('quantity 0 is out of range') }) });
  });
  on('throw-aggregate', () => {
    throw new AggregateError([new Error('card declined'), new TypeError('address is invalid')], 'payment failed');
  });`;

/**
 * The snippet, then buttons that throw and reject unusual values once the beacon runs.
 *
 * @example
 * world.route('/late/causes', latePage(setup), { 'content-security-policy': fidelityPolicy(setup) });
 */
export const latePage = (setup: SiteSetup) => `<!doctype html><html lang="en"><head><title>late</title>
${setup.snippet}
</head><body><h1>Late</h1>
${['throw-string', 'throw-object', 'reject-image', 'throw-cause', 'throw-aggregate'].map((id) => `<button id="${id}">${id}</button>`).join('')}
<script nonce="${NONCE}">${LATE_SCRIPT}</script></body></html>`;
