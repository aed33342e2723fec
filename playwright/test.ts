import { expect as baseExpect, test as base } from '@playwright/test';
import { createBeaconFixture, type BeaconFixture } from './beaconFixture';
import { beaconMatchers } from './matchers';
import type { CaptureName, FixturePageConfig } from './page/protocol';
import { describeProblem, unreported } from './problems';
import { startCollector, type WorkerCollector } from './startCollector';

/** An existing collector to report to instead of the in-process one (`beaconCollector`). */
export interface ExistingCollector {
  /** Its URL, e.g. `https://collector.staging.example`; the beacon posts to `URL/api/...`. */
  url: string;
  /** A site whose allowed origins include every origin the tests open. */
  siteKey: string;
  /** An API key that may read that site (`sitebeacon key create --site SITE_KEY`). */
  apiKey: string;
}

/**
 * The options of the `beacon` fixture: `test.use({ beaconOptions: { ... } })`. One object, because
 * Playwright takes a function given to `test.use` for a fixture, and `beforeSend` is a function.
 */
export interface BeaconOptions {
  /** What the injected beacon captures. Default: all three. */
  capture?: CaptureName[];
  /**
   * Sees every report in the page before it is sent: return it (edited or not), or null to drop it.
   * It runs in the page, sent there as source: it cannot use the test's variables.
   */
  beforeSend?: FixturePageConfig['beforeSend'];
  /**
   * Fail on the beacon's own errors: it threw on the page (contained: the page never saw it), or it
   * could not deliver a report (the collector refused it: 403, 400, 413, 429, 5xx; or its request
   * failed): the matchers fail, and so does the test at its end (for what no failed matcher
   * named), as it does for a page whose CSP blocks the collector. Default true. Off, a page whose
   * CSP blocks the collector, or that has no beacon, still fails the matchers (they cannot answer),
   * but not the test's end.
   */
  failOnOwnErrors?: boolean;
}

/** The worker-scoped option: report to an existing collector instead of starting one. */
export interface BeaconWorkerOptions {
  beaconCollector: ExistingCollector | undefined;
}

/**
 * `test` of `@playwright/test` with the `beacon` fixture: a collector started in the worker (on a
 * random loopback port, a temporary SQLite file) or an existing one, and the beacon injected into
 * every page of the test's context before any page script runs.
 *
 * @example
 * import { test, expect } from 'sitebeacon/playwright';
 * test('checkout is clean', async ({ page, beacon }) => {
 *   await page.goto('https://staging.shop.example/checkout');
 *   await expect(beacon).toHaveNoErrors();
 * });
 */
export const test = base.extend<
  { beaconOptions: BeaconOptions; beacon: BeaconFixture },
  BeaconWorkerOptions & { sitebeaconCollector: WorkerCollector | undefined }
>({
  beaconOptions: [{}, { option: true }],
  beaconCollector: [undefined, { scope: 'worker', option: true }],

  sitebeaconCollector: [
    async ({ beaconCollector }, use) => {
      if (beaconCollector) return use(undefined);
      const collector = await startCollector();
      try {
        await use(collector);
      } finally {
        await collector.close();
      }
    },
    { scope: 'worker', title: 'sitebeacon collector', box: true },
  ],

  beacon: [
    async ({ context, sitebeaconCollector, beaconCollector, beaconOptions }, use) => {
      const { capture = ['errors', 'csp', 'vitals'], beforeSend, failOnOwnErrors = true } = beaconOptions;
      const target = sitebeaconCollector
        ? await sitebeaconCollector.newSite()
        : // A shared site holds other tests' reports: this test reads what arrived since it started (the
          // collector's clock is taken to be in sync with this machine's, as NTP keeps servers).
          { ...beaconCollector!, since: Date.now(), allowOrigin: async () => {} };
      const beacon = await createBeaconFixture(context, target, {
        capture,
        beforeSend,
        failOnOwnErrors,
      });
      await use(beacon);
      // What the test did not assert may still have gone wrong: a send the collector refused. A
      // problem a failed matcher already named is not named twice.
      await beacon.flush();
      const problems = failOnOwnErrors ? unreported(beacon, beacon.problems()).filter((problem) => problem.kind != 'missing') : [];
      if (problems.length) {
        throw new Error(`sitebeacon/playwright: the beacon could not report everything:\n${problems.map((problem) => `  - ${describeProblem(problem)}`).join('\n')}`);
      }
    },
    { title: 'sitebeacon beacon' },
  ],
});

/**
 * `expect` of `@playwright/test` with the beacon's matchers: `toHaveNoErrors()`,
 * `toHaveReceivedError({ message?, type? })`, `toHaveNoCspViolations()`,
 * `toHaveReceivedCspViolation({ directive?, blockedUri? })`, `toHaveVitals({ LCP: { below: 2500 } })`.
 *
 * @example
 * await expect(beacon).toHaveReceivedError({ message: 'cart is empty', type: 'javascript_error' });
 */
export const expect = baseExpect.extend(beaconMatchers);
