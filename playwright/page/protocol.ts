/**
 * What passes between the fixture (Node) and its beacon in the page (page/fixtureBeacon.ts).
 * Types only: both sides import them, neither gets code from here.
 */

/** The kinds of capture the fixture can inject. */
export type CaptureName = 'errors' | 'csp' | 'vitals';

/** The injected beacon's options, as the init script hands them over. */
export interface FixturePageConfig {
  siteKey: string;
  /** The collector's origin; the API base is `ORIGIN/api`. */
  ingestOrigin: string;
  capture: CaptureName[];
  /** Runs in the page (see `beaconOptions.beforeSend`): a report as the wire format has it (beacon/lib/wire.ts). */
  beforeSend?: (report: Record<string, unknown>, kind: 'error' | 'csp' | 'performance') => object | null | false | undefined | void;
}

/** A page's CSP blocked the collector: its reports cannot leave the page. */
export interface CollectorBlocked {
  /** The directive as the policy wrote it, e.g. `connect-src 'self'`. */
  directive: string;
  blockedUri: string;
  /** The whole policy that blocked it. */
  policy: string;
}

/** What a page's flush answers: what the fixture cannot learn from the collector. */
export interface FixturePageState {
  url: string;
  blockedBy: CollectorBlocked[];
  /** `PerformanceObserver.supportedEntryTypes` in this browser: which vitals it can measure. */
  entryTypes: string[];
  /** Why the page could not reach the collector at all, when no CSP violation says it. */
  unreachable?: string;
  /** Errors the beacon itself threw and contained (monitor()), as text; the first few. */
  ownErrors: string[];
}
