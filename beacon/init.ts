import { resolveEndpoints, type EndpointOptions, type Endpoints } from './config';
import { batches } from './lib/batches';
import { listen } from './lib/listen';
import { monitor } from './lib/monitor';
import { randomId } from './lib/randomId';
import { toErrorReport, type ErrorReport } from './lib/errorReport';
import { createTransport, MAX_BODY_BYTES } from './transport';

/** The kinds of report, one endpoint each. */
export type ReportKind = keyof Endpoints;

/**
 * What a capture (`errors()`, `csp()`, `vitals()`) receives from `init`. Its members are
 * `_`-prefixed: internal, and mangled in the minified script.
 */
export interface BeaconContext {
  /**
   * Queues a report. A report identical to one still queued (its time aside) is folded into
   * it: an error counts up, a CSP report is dropped. A performance session is queued as the live
   * object, once: what is sent is its state at the flush.
   */
  _report(kind: ReportKind, report: object): void;
  /** The page's CSP blocks the collector: stop sending, for good. */
  _block(): void;
  /** The resolved endpoints, so a capture can recognise the collector's own URLs. */
  _endpoints: Endpoints;
  /** Identifies this page view. */
  _sessionId: string;
}

/** Installs listeners for one kind of capture; returns what removes them. */
export type Capture = (context: BeaconContext) => (() => void) | void;

/** Options of `init()`. */
export interface BeaconOptions extends EndpointOptions {
  /** What to capture, e.g. `[errors(), csp(), vitals()]`. Only what is imported here is bundled. */
  capture?: Capture[];
  /**
   * Sees every report before it is queued: return it (edited or not) to send it, or
   * `null` / `false` to drop it. Its own exceptions are contained: the report is then sent as it was.
   */
  beforeSend?: (report: object, kind: ReportKind) => object | null | false | undefined | void;
}

/** The handle `init()` returns. */
export interface Beacon {
  /** Reports an error the application caught itself (`error_type` "manual"). */
  captureError(error: unknown): void;
  /** Sends everything queued now; resolves when the requests have settled. Never rejects. */
  flush(): Promise<void>;
  /** Removes every listener and timer the beacon installed, then sends what is queued. */
  stop(): void;
}

/** Reports are sent at most this long after they were captured. */
const FLUSH_DELAY = 1000;
/** The collector takes arrays of at most 50 error reports (design, error reports). */
const MAX_BATCH = 50;
/** Distinct error and CSP reports one page view may send: a page throwing in a loop stays a few reports. */
const MAX_REPORTS_PER_PAGE = 25;

const noop = () => {};
const noopBeacon: Beacon = { captureError: noop, flush: () => Promise.resolve(), stop: noop };

/**
 * Starts the beacon.
 *
 * @example
 * import { init, errors, csp, vitals } from 'sitebeacon';
 * const beacon = init({ siteKey: 'KEY', ingestOrigin: 'https://in.example', capture: [errors(), csp(), vitals()] });
 * beacon.captureError(new Error('checkout failed'));
 */
export const init = (options: BeaconOptions): Beacon => {
  // Server-side rendering, workers: nothing to watch, nothing to send.
  if (typeof document == 'undefined') return noopBeacon;

  const endpoints = resolveEndpoints(options, location.origin);
  const transport = createTransport();
  const queues: Record<ReportKind, object[]> = { error: [], csp: [], performance: [] };
  const sentThisPage: Record<string, number> = {};
  let queued: Record<string, ErrorReport> = {};
  let timer: ReturnType<typeof setTimeout> | undefined;

  const flush = (atExit: boolean) => {
    clearTimeout(timer);
    timer = undefined;
    queued = {};
    const sends: unknown[] = [];
    for (const kind in queues) {
      const reports = queues[kind as ReportKind].splice(0) as Array<{ session_id?: string }>;
      // Errors go in arrays; a CSP report (the CSP2 shape is one report) and a session go alone.
      const bodies = kind == 'error' ? batches(reports, MAX_BODY_BYTES, MAX_BATCH) : reports.map((report) => JSON.stringify(report));
      bodies.forEach((body, index) =>
        sends.push(transport._send(endpoints[kind as ReportKind], body, atExit, kind == 'performance' ? reports[index]!.session_id : undefined)),
      );
    }
    return Promise.all(sends).then(noop);
  };

  const report = (kind: ReportKind, original: object) => {
    let value: object | null | false | undefined | void = original;
    if (options.beforeSend) {
      try {
        value = options.beforeSend(original, kind);
      } catch {
        value = original;
      }
      if (!value) return;
    }
    const queue = queues[kind];
    if (kind == 'error') (value as ErrorReport).session_id = context._sessionId;
    if (kind == 'performance') {
      if (queue.includes(value)) return;
    } else {
      const key = kind + JSON.stringify(value, (name, field) => (name == 'timestamp' ? 0 : field));
      const same = queued[key];
      if (same) {
        if (kind == 'error') same.count = (same.count || 1) + 1;
        return;
      }
      sentThisPage[kind] = (sentThisPage[kind] || 0) + 1;
      if (sentThisPage[kind]! > MAX_REPORTS_PER_PAGE) return;
      queued[key] = value as ErrorReport;
    }
    queue.push(value);
    timer ??= setTimeout(onTimer, FLUSH_DELAY);
  };
  const onTimer = monitor(() => flush(false));

  const context: BeaconContext = {
    _report: monitor(report),
    _block: transport._block,
    _endpoints: endpoints,
    _sessionId: randomId(),
  };

  // Page exit: flush when hidden and on pagehide, never on unload (it keeps pages out of the
  // back/forward cache). The hidden listener is on window in the bubble phase so that it runs
  // after web-vitals' capture-phase listener has reported the final CLS and INP.
  const stoppers = [
    listen('visibilitychange', monitor(() => document.visibilityState == 'hidden' && flush(true))),
    listen('pagehide', monitor(() => flush(true))),
  ];
  for (const capture of options.capture || []) {
    const stop = monitor(capture)(context);
    if (stop) stoppers.push(stop);
  }

  return {
    captureError: monitor((error: unknown) => report('error', toErrorReport(error, 'manual'))),
    flush: () => monitor(flush)(false) || Promise.resolve(),
    stop: monitor(() => {
      for (const stop of stoppers.splice(0)) monitor(stop)();
      flush(false);
    }),
  };
};
