import { test, type ExpectMatcherState, type MatcherReturnType } from '@playwright/test';
import type { BeaconFixture } from './beaconFixture';
import { describeProblem, isFatal, markReported } from './problems';
import { noCspViolations, noErrors, receivedCspViolation, receivedError, type CspFilter, type ErrorFilter, type Verdict } from './verdict';
import { vitals, type VitalsExpectation } from './vitalsVerdict';

/** Pauses between reads, as Playwright's own retrying matchers. */
const INTERVALS = [100, 250, 500, 1000];

const isBeaconFixture = (value: unknown): value is BeaconFixture =>
  typeof value == 'object' && value !== null && typeof (value as BeaconFixture).flush == 'function' && typeof (value as BeaconFixture).problems == 'function';

/**
 * The retrying core of every matcher: flush the pages' beacons, read the collector, judge; again
 * until the wanted verdict (`pass`, or not with `.not`), a verdict waiting cannot change, or the
 * `expect` timeout. A problem that kept the beacon from reporting (the page's CSP blocks the
 * collector, a refused send) fails the assertion whatever it asked, `.not` included: an empty
 * collector proves nothing then.
 */
async function assertBeacon(
  state: ExpectMatcherState,
  name: string,
  beacon: unknown,
  expectedArgument: string,
  judge: (beacon: BeaconFixture) => Promise<Verdict>,
): Promise<MatcherReturnType> {
  const hint = state.utils.matcherHint(name, 'beacon', expectedArgument, { isNot: state.isNot, promise: state.promise });
  if (!isBeaconFixture(beacon)) {
    return { pass: state.isNot, name, message: () => `${hint}\n\nexpect(...) must be given the \`beacon\` fixture of sitebeacon/playwright, got ${state.utils.printReceived(beacon)}` };
  }
  const deadline = Date.now() + state.timeout;
  let verdict: Verdict;
  let timedOut = false;
  for (let attempt = 0; ; attempt++) {
    await beacon.flush();
    verdict = await judge(beacon);
    if (beacon.problems().some((problem) => isFatal(problem, beacon.failOnOwnErrors))) break;
    if (verdict.pass != state.isNot || verdict.final) break;
    const left = deadline - Date.now();
    if (left <= 0) {
      timedOut = true;
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(INTERVALS[attempt] ?? 1000, left)));
  }
  for (const note of verdict.notes ?? []) {
    try {
      test.info().annotations.push({ type: 'sitebeacon', description: note });
    } catch {
      // Outside a test (a hook of its own runner): the message below still says it.
    }
    console.warn(`sitebeacon/playwright: ${note}`);
  }
  const problems = beacon.problems();
  const fatal = problems.filter((problem) => isFatal(problem, beacon.failOnOwnErrors));
  const problemLines = problems.map((problem) => `\n  - ${describeProblem(problem)}`).join('');
  const message = () =>
    `${hint}\n\n` +
    (fatal.length ? `The beacon could not report everything, so the collector's records cannot answer this assertion:${problemLines}\n\n` : '') +
    `Expected: ${state.isNot ? 'not ' : ''}${verdict.expected}\nReceived: ${verdict.received}` +
    (!fatal.length && problems.length ? `\n\nThe beacon's own errors (failOnOwnErrors is off):${problemLines}` : '') +
    (timedOut ? `\n\nTimeout: ${state.timeout}ms` : '');
  // This failure names them: the fixture's end-of-test check need not fail the test for them again.
  if (fatal.length) markReported(beacon, fatal);
  return {
    pass: fatal.length ? state.isNot : verdict.pass,
    name,
    message,
    expected: verdict.expected,
    actual: verdict.received,
    ...(timedOut ? { timeout: state.timeout } : {}),
  };
}

const printFilter = (state: ExpectMatcherState, filter: object | undefined) => (filter === undefined ? '' : state.utils.printExpected(filter));

/**
 * The matchers on `expect(beacon)`, for `expect.extend`. Each flushes the pages' beacons first and
 * retries until the `expect` timeout; a failure lists what the collector received.
 *
 * @example
 * const expect = baseExpect.extend(beaconMatchers);
 * await expect(beacon).toHaveNoErrors();
 */
export const beaconMatchers = {
  /** No error report stored: uncaught errors, unhandled rejections, failed resource loads, `captureError`. */
  async toHaveNoErrors(this: ExpectMatcherState, beacon: BeaconFixture) {
    return assertBeacon(this, 'toHaveNoErrors', beacon, '', async (fixture) => noErrors(await fixture.errors()));
  },
  /** An error report matching `filter` (message: substring or RegExp; type: `error_type`) was stored. */
  async toHaveReceivedError(this: ExpectMatcherState, beacon: BeaconFixture, filter?: ErrorFilter) {
    return assertBeacon(this, 'toHaveReceivedError', beacon, printFilter(this, filter), async (fixture) => receivedError(await fixture.errors(), filter));
  },
  /** No CSP violation stored (enforced or report-only). */
  async toHaveNoCspViolations(this: ExpectMatcherState, beacon: BeaconFixture) {
    return assertBeacon(this, 'toHaveNoCspViolations', beacon, '', async (fixture) => noCspViolations(await fixture.cspViolations()));
  },
  /** A CSP violation matching `filter` (directive; blockedUri: substring or RegExp) was stored. */
  async toHaveReceivedCspViolation(this: ExpectMatcherState, beacon: BeaconFixture, filter?: CspFilter) {
    return assertBeacon(this, 'toHaveReceivedCspViolation', beacon, printFilter(this, filter), async (fixture) =>
      receivedCspViolation(await fixture.cspViolations(), filter),
    );
  },
  /** Every page view's value of each metric named is below its bound; metrics the browser cannot measure are named, not checked. */
  async toHaveVitals(this: ExpectMatcherState, beacon: BeaconFixture, expectation: VitalsExpectation) {
    return assertBeacon(this, 'toHaveVitals', beacon, printFilter(this, expectation), async (fixture) =>
      vitals(await fixture.sessions(), expectation, fixture.entryTypes(), fixture.browserName),
    );
  },
};
