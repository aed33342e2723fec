import type { CollectorBlocked } from './page/protocol';

/**
 * Something kept the beacon from reporting: a test that asserts "no errors" cannot trust an
 * empty collector then. `blocked`, `unreachable` and `missing` always fail the matchers; `refused` and
 * `failed` (the beacon's own errors) do so unless `beaconOptions.failOnOwnErrors` is false.
 */
export type BeaconProblem =
  /** The page's Content-Security-Policy blocks the collector (connect-src). */
  | ({ kind: 'blocked'; page: string; collector: string } & CollectorBlocked)
  /** An http(s) page without the beacon: it loaded before the fixture was set up. */
  | { kind: 'missing'; page: string }
  /** The page could not reach the collector at all (no CSP violation: network, Local Network Access). */
  | { kind: 'unreachable'; page: string; collector: string; detail: string }
  /** The collector answered a report with an error (403 origin not allowed, 400, 413, 429, 5xx). */
  | { kind: 'refused'; url: string; status: number; detail: string }
  /** A report's request failed on the way (connection refused, reset). */
  | { kind: 'failed'; url: string; detail: string }
  /** The beacon itself threw on the page (contained: the page never saw it). */
  | { kind: 'own'; page: string; detail: string };

/**
 * One line saying what went wrong and what to do about it.
 *
 * @example
 * describeProblem({ kind: 'refused', url: 'http://127.0.0.1:4000/api/error-reports/k', status: 403, detail: 'origin_not_allowed' })
 * // 'the collector refused a report (403 origin_not_allowed) at http://127.0.0.1:4000/api/error-reports/k'
 */
export const describeProblem = (problem: BeaconProblem): string => {
  switch (problem.kind) {
    case 'blocked':
      return (
        `the page ${problem.page} cannot report: its Content-Security-Policy blocks the collector ` +
        `(${problem.blockedUri} violates "${problem.directive}"). Allow ${problem.collector} in connect-src ` +
        `(policy: ${problem.policy})`
      );
    case 'missing':
      return (
        `the page ${problem.page} has no beacon: it loaded before the \`beacon\` fixture was set up ` +
        `(ask for \`beacon\` in the hook or test that navigates, before it navigates)`
      );
    case 'unreachable':
      return `the page ${problem.page} cannot reach the collector ${problem.collector}: ${problem.detail}`;
    case 'refused':
      return `the collector refused a report (${problem.status} ${problem.detail}) at ${problem.url}`;
    case 'failed':
      return `a report did not reach the collector (${problem.detail}) at ${problem.url}`;
    case 'own':
      return `the beacon itself failed on the page ${problem.page}: ${problem.detail}`;
  }
};

/** Whether a problem fails the matchers: the page's own setup always; the beacon's own errors when asked. */
export const isFatal = (problem: BeaconProblem, failOnOwnErrors: boolean) =>
  problem.kind == 'blocked' || problem.kind == 'unreachable' || problem.kind == 'missing' || failOnOwnErrors;

/** Problems are recorded once however often they recur (every flush of a blocked page). */
export const problemKey = (problem: BeaconProblem) => describeProblem(problem);

/** Problems a failed matcher already named, per fixture: the test's end does not name them again. */
const reported = new WeakMap<object, Set<string>>();

/**
 * Records that an assertion's failure message named these problems.
 *
 * @example
 * markReported(beacon, fatal);
 */
export const markReported = (owner: object, problems: BeaconProblem[]) => {
  const keys = reported.get(owner) ?? new Set<string>();
  for (const problem of problems) keys.add(problemKey(problem));
  reported.set(owner, keys);
};

/** The problems no failed assertion has named yet. */
export const unreported = (owner: object, problems: BeaconProblem[]) => problems.filter((problem) => !reported.get(owner)?.has(problemKey(problem)));
