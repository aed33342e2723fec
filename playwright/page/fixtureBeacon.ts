import { csp } from '../../beacon/csp';
import { errors } from '../../beacon/errors';
import { init, type BeaconOptions, type Capture } from '../../beacon/init';
import vitalsScript from '../../beacon/vitalsScript';
import { vitalsSession } from '../../beacon/vitalsSession';
import type { FixturePageConfig, FixturePageState } from './protocol';

/** A beacon failing in a loop says what it has to say in its first errors. */
const MAX_OWN_ERRORS = 5;

/**
 * The IIFE entry of `dist/playwright.beacon.js`: the beacon as `sitebeacon/playwright` injects it into
 * every page with `context.addInitScript`, before any page script runs. The script-tag build
 * (`beacon.min.js`) reads its options from its own tag's data- attributes, which an init script
 * does not have; this entry takes them as an argument instead, from the fixture, and is built
 * apart so that `beacon.min.js` keeps its bytes (`npm run size`).
 *
 * What differs from the script tag, and why:
 * - vitals are registered at once, with `reportAllChanges`: a test reads them while the page is
 *   still open, and web-vitals would otherwise report LCP, CLS and INP only when the page is hidden;
 * - it records for the fixture what the collector cannot see: whether the page's CSP blocked the
 *   collector (`connect-src`), the errors the beacon itself contained, and which entry types this
 *   browser supports (a vital it cannot measure is reported as such by `toHaveVitals`, not failed);
 * - it becomes `window.sitebeacon`, so a page that also carries its own sitebeacon snippet reports
 *   to the test's collector only (the snippet's copy sees a running beacon and does nothing).
 *
 * @example
 * // The fixture's init script: `(() => { <this file>; sitebeaconFixture(config); })()`
 * sitebeaconFixture({ siteKey: 'k', ingestOrigin: 'http://127.0.0.1:40123', capture: ['errors', 'csp', 'vitals'] });
 */
export default (config: FixturePageConfig) => {
  // Frames other than the top one (ads, payment iframes) are other documents, often other origins.
  // Pages that are not http(s) (about:blank, data:) have an opaque origin no site can allow.
  if (window.top !== window || !/^https?:$/.test(location.protocol)) return;
  const state: FixturePageState = {
    url: location.href,
    blockedBy: [],
    entryTypes: [...((globalThis.PerformanceObserver && PerformanceObserver.supportedEntryTypes) || [])],
    ownErrors: [],
  };
  // This build's monitor() hands over what it contains (beacon/lib/monitor.ts): the beacon's own
  // errors, which the page never sees and the test must. A hostile page's error may not even
  // convert to a string: that is contained here too.
  Object.defineProperty(window, Symbol.for('sitebeacon.contained'), {
    value: (error: unknown) => {
      try {
        if (state.ownErrors.length < MAX_OWN_ERRORS) state.ownErrors.push(String((error as Error)?.stack || error).split('\n').slice(0, 2).join(' '));
      } catch {
        state.ownErrors.push('(an error that cannot be described)');
      }
    },
  });
  const collector = new URL(config.ingestOrigin).origin;
  // The beacon's own csp() never reports a violation against the collector (a feedback loop) and
  // stops sending when it is enforced in connect-src: the test must hear of it, or toHaveNoErrors
  // would pass on a page that could not report anything.
  addEventListener(
    'securitypolicyviolation',
    (event) => {
      const blocked = event.blockedURI;
      if (event.disposition == 'enforce' && event.effectiveDirective == 'connect-src' && (blocked == collector || blocked.startsWith(collector + '/'))) {
        state.blockedBy.push({ directive: event.violatedDirective, blockedUri: blocked, policy: event.originalPolicy });
      }
    },
    true,
  );
  const captures: Record<string, () => Capture> = {
    errors,
    csp,
    vitals: () =>
      vitalsSession((listener) => {
        let subscribed = true;
        vitalsScript((metric) => subscribed && listener(metric), true);
        return () => void (subscribed = false);
      }),
  };
  const options: BeaconOptions = {
    siteKey: config.siteKey,
    ingestOrigin: config.ingestOrigin,
    capture: config.capture.filter((name) => Object.hasOwn(captures, name)).map((name) => captures[name]!()),
  };
  // The same function: reports are plain JSON objects, typed for the test's convenience.
  if (config.beforeSend) options.beforeSend = config.beforeSend as BeaconOptions['beforeSend'];
  const beacon = init(options);
  const globals = window as unknown as { sitebeacon?: unknown };
  globals.sitebeacon = beacon;
  // A page without a report sends nothing, and would never meet its CSP's block: the first flush
  // asks the collector's connectivity endpoint (spec section 4: stores nothing, any origin may read
  // it), under the same connect-src as the reports. The violation event comes as a task of its
  // own: it is waited for before saying "unreachable" instead of "blocked".
  let probe: Promise<void> | undefined;
  const probeCollector = () =>
    (probe ??= fetch(collector + '/api/test-connectivity', { credentials: 'omit', cache: 'no-store' }).then(
      () => {},
      (error: unknown) =>
        new Promise<void>((resolve) => setTimeout(resolve, 100)).then(() => {
          if (!state.blockedBy.length) state.unreachable = String(error);
        }),
    ));
  // A symbol, not a name: page code that lists window's properties does not meet it.
  Object.defineProperty(window, Symbol.for('sitebeacon.fixture'), {
    value: { flush: () => probeCollector().then(() => beacon.flush()).then(() => state) },
  });
};
