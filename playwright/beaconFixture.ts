import { readFileSync } from 'node:fs';
import type { BrowserContext, Page, Request, Response } from '@playwright/test';
import type { StoredCspReport, StoredErrorReport, StoredPerformanceSession } from '../collector/index';
import { diagnoseFailure, errorDetail } from './diagnose';
import { distFile } from './distFile';
import { initScript } from './initScript';
import type { CaptureName, FixturePageConfig, FixturePageState } from './page/protocol';
import { problemKey, type BeaconProblem } from './problems';
import { readRecords } from './readRecords';
import type { ReportTarget } from './startCollector';

/** The `beacon` fixture: the injected beacon of one test's context, and what its collector stored. */
export interface BeaconFixture {
  /** The collector the pages report to, e.g. `http://127.0.0.1:40123`. */
  readonly collectorUrl: string;
  /** The site the pages report under (one per test with the in-process collector). */
  readonly siteKey: string;
  /**
   * Sends what every open page's beacon has queued and waits until the collector has answered.
   * The matchers call it first; call it yourself before reading the records below.
   */
  flush(): Promise<void>;
  /** Error reports stored for this test, oldest first. */
  errors(): Promise<StoredErrorReport[]>;
  /** CSP violations stored for this test, oldest first. */
  cspViolations(): Promise<StoredCspReport[]>;
  /** Performance sessions (one per page view, with its latest Web Vitals) stored for this test. */
  sessions(): Promise<StoredPerformanceSession[]>;
  /** What kept the beacon from reporting so far: a CSP that blocks the collector, refused or failed sends. */
  problems(): BeaconProblem[];
  /**
   * `PerformanceObserver.supportedEntryTypes` of the browser, as a page reported it at its last
   * flush (undefined before): which Web Vitals it can measure.
   */
  entryTypes(): string[] | undefined;
  /** The browser's name (`chromium`, `firefox`, `webkit`), for messages. */
  readonly browserName: string;
  /** Whether the matchers fail on the beacon's own errors (refused or failed sends): `beaconOptions.failOnOwnErrors`. */
  readonly failOnOwnErrors: boolean;
}

/** The fixture's options (the `beacon*` options of `test.use`). */
export interface BeaconSetup {
  capture: CaptureName[];
  failOnOwnErrors: boolean;
  beforeSend?: FixturePageConfig['beforeSend'] | undefined;
}

/** A page's flush may hang on a page that is busy; the matchers retry anyway. */
const PAGE_FLUSH_TIMEOUT = 5_000;
/** How long a flush waits for report requests still in flight (sendBeacon at page exit). */
const INFLIGHT_TIMEOUT = 5_000;
/** A keepalive request aborted at page exit still goes on; an existing collector is given this long to store it. */
const ABORTED_GRACE = 1_000;

const FIXTURE = Symbol.for('sitebeacon.fixture');

const withTimeout = async <T>(promise: Promise<T>, ms: number): Promise<T | undefined> => {
  // `unknown`: the DOM's and Node's setTimeout types disagree, and this runs in Node.
  let timer: unknown;
  try {
    return await Promise.race([promise, new Promise<undefined>((resolve) => (timer = setTimeout(resolve, ms)))]);
  } finally {
    clearTimeout(timer as number);
  }
};

/**
 * Injects the beacon into every page of `context` (before any page script, with
 * `context.addInitScript`: Playwright's own API in Chromium, Firefox and WebKit, no CDP), lets the
 * target's site accept every page's origin as the page navigates, and watches the requests the
 * beacon makes to the collector: refused or failed sends become problems, and a flush waits for
 * those still in flight.
 *
 * @example
 * const beacon = await createBeaconFixture(context, await collector.newSite(), { capture: ['errors', 'csp', 'vitals'] });
 * await page.goto(url);
 * await beacon.flush();
 * (await beacon.errors()).length
 */
export const createBeaconFixture = async (context: BrowserContext, target: ReportTarget, setup: BeaconSetup): Promise<BeaconFixture> => {
  const code = readFileSync(distFile('playwright.beacon.js'), 'utf8');
  const ingestOrigin = new URL(target.url).origin;
  await context.addInitScript({ content: initScript(code, { siteKey: target.siteKey, ingestOrigin, capture: setup.capture }, setup.beforeSend) });

  const problems = new Map<string, BeaconProblem>();
  const addProblem = (problem: BeaconProblem) => problems.set(problemKey(problem), problem);
  const reportPath = new RegExp(`^/api/(?:error-reports|csp-reports|performance-sessions)/${encodeURIComponent(target.siteKey)}$`);
  const isReport = (url: string) => {
    const parsed = new URL(url);
    return parsed.origin == ingestOrigin && reportPath.test(parsed.pathname);
  };
  const inflight = new Set<Request>();
  // Report requests the pages started and did not see fail: the in-process collector, which
  // counts what it answered, has answered them all once its count reaches this one.
  let started = 0;
  let lastAbort = 0;
  const allowing = new Set<Promise<void>>();
  const diagnosing = new Set<Promise<unknown>>();
  let entryTypes: string[] | undefined;

  const onRequest = (request: Request) => {
    if (isReport(request.url())) {
      inflight.add(request);
      if (request.method() != 'OPTIONS') started++;
    }
    // A page's origin is allowed when it starts to load, well before its beacon's first send
    // (a second after its first report, or at a flush, which waits for this).
    else if (request.isNavigationRequest() && /^https?:/.test(request.url())) {
      const allowed = target.allowOrigin(new URL(request.url()).origin).finally(() => allowing.delete(allowed));
      allowing.add(allowed);
    }
  };
  const onResponse = async (response: Response) => {
    if (!isReport(response.url()) || response.status() < 400) return;
    const detail = errorDetail(await response.text().catch(() => ''));
    addProblem({ kind: 'refused', url: response.url(), status: response.status(), detail });
  };
  const onSettled = (request: Request) => inflight.delete(request);
  const onFailed = (request: Request) => {
    if (!inflight.delete(request)) return;
    const detail = request.failure()?.errorText ?? 'failed';
    // The page left while its keepalive fetch was out: the browser reports it aborted, and sends it
    // all the same (Fetch standard, keepalive; beacon/transport.ts). Not a failure.
    if (/abort|cancel/i.test(detail)) return void (lastAbort = Date.now());
    if (request.method() != 'OPTIONS') started--;
    // A CSP block is reported by the page itself (blockedBy), with the policy that did it.
    // Chromium says `csp`; Firefox `NS_ERROR_CONTENT_BLOCKED`.
    if (/csp|content.security|content_blocked/i.test(detail)) return;
    const diagnosed = diagnoseFailure(request, detail)
      .then(addProblem)
      .finally(() => diagnosing.delete(diagnosed));
    diagnosing.add(diagnosed);
  };
  context.on('request', onRequest);
  context.on('response', onResponse);
  context.on('requestfinished', onSettled);
  context.on('requestfailed', onFailed);

  const flushPage = async (page: Page) => {
    const state = await withTimeout(
      page
        .evaluate(async (key): Promise<FixturePageState | { missing: string } | undefined> => {
          const fixture = (window as unknown as Record<symbol, { flush(): Promise<FixturePageState> } | undefined>)[Symbol.for(key)];
          if (fixture) return fixture.flush();
          return /^https?:$/.test(location.protocol) ? { missing: location.href } : undefined;
        }, FIXTURE.description!)
        // A page navigating or closing has no beacon to flush now; it flushed at pagehide.
        .catch(() => undefined),
      PAGE_FLUSH_TIMEOUT,
    );
    if (!state) return;
    if ('missing' in state) return void addProblem({ kind: 'missing', page: state.missing });
    entryTypes = state.entryTypes;
    for (const blocked of state.blockedBy) addProblem({ kind: 'blocked', page: state.url, collector: ingestOrigin, ...blocked });
    if (state.unreachable) addProblem({ kind: 'unreachable', page: state.url, collector: ingestOrigin, detail: state.unreachable });
    for (const detail of state.ownErrors) addProblem({ kind: 'own', page: state.url, detail });
  };

  const flush = async () => {
    await Promise.all([...allowing]);
    await Promise.all(context.pages().map(flushPage));
    // Then wait for the requests in flight: exactly with the in-process collector (it counts what
    // it answered); otherwise until none is in flight and a little after one was aborted at page exit.
    const deadline = Date.now() + INFLIGHT_TIMEOUT;
    const settled = target.answered
      ? () => target.answered!() >= started
      : () => !inflight.size && Date.now() - lastAbort > ABORTED_GRACE;
    while (!settled() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    await Promise.all([...diagnosing]);
    if (target.answered && !settled()) {
      // Requests the browser started that never arrived (a fetch without keepalive cut off by a
      // navigation): lost, and said so once; the count starts again from what arrived.
      addProblem({ kind: 'failed', url: target.url, detail: `${started - target.answered()} report request(s) started but never arrived` });
      started = target.answered();
    }
  };

  return {
    collectorUrl: target.url,
    siteKey: target.siteKey,
    browserName: context.browser()?.browserType().name() ?? 'unknown',
    failOnOwnErrors: setup.failOnOwnErrors,
    flush,
    errors: () => readRecords(target, 'error-reports'),
    cspViolations: async () => (await readRecords(target, 'csp-reports')).filter((report) => report.report_type == 'csp-violation'),
    sessions: () => readRecords(target, 'performance-sessions'),
    problems: () => [...problems.values()],
    entryTypes: () => entryTypes,
  };
};
