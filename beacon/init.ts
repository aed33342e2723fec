import { resolveEndpoints, type EndpointOptions, type Endpoints } from './config';
import { monitor } from './lib/monitor';
import { toErrorReport, type ErrorReport } from './lib/errorReport';
import { post } from './transport';

/** The kinds of report, one endpoint each. */
export type ReportKind = keyof Endpoints;

/** What a capture (`errors()`, later `csp()`, `vitals()`) receives from `init`. */
export interface BeaconContext {
  /** Queues one report for sending. */
  report(kind: ReportKind, report: object): void;
  /** The resolved endpoints, so a capture can recognise the collector's own URLs. */
  endpoints: Endpoints;
  /** Identifies this page view. */
  sessionId: string;
}

/** Installs listeners for one kind of capture; returns what removes them. */
export type Capture = (context: BeaconContext) => (() => void) | void;

/** Options of `init()`. */
export interface BeaconOptions extends EndpointOptions {
  /** What to capture, e.g. `[errors()]`. Only what is imported here is bundled. */
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
  /** Sends everything queued now; resolves when the requests have settled. */
  flush(): Promise<void>;
  /** Sends what is queued, then removes every listener and timer the beacon installed. */
  stop(): void;
}

/** Reports are sent at most this long after they were captured. */
const FLUSH_DELAY = 1000;
/** The collector takes arrays of at most 50 reports (design, error reports). */
const MAX_BATCH = 50;
/** A page that throws in a loop sends at most this many distinct error reports. */
const MAX_ERRORS_PER_PAGE = 100;

const noopBeacon: Beacon = { captureError() {}, flush: () => Promise.resolve(), stop() {} };

const randomId = () => Date.now().toString(36) + '-' + Math.random().toString(36).slice(2, 12);

const errorKey = (report: ErrorReport) =>
  [report.error_type, report.error_message, report.source_url, report.line, report.column].join('\n');

/**
 * Starts the beacon.
 *
 * @example
 * import { init, errors } from 'sitebeacon';
 * const beacon = init({ siteKey: 'KEY', ingestOrigin: 'https://in.example', capture: [errors()] });
 * beacon.captureError(new Error('checkout failed'));
 */
export const init = (options: BeaconOptions): Beacon => {
  // Server-side rendering, workers: nothing to watch, nothing to send.
  if (typeof window == 'undefined' || typeof document == 'undefined') return noopBeacon;

  const endpoints = resolveEndpoints(options, location.origin);
  const sessionId = randomId();
  const queues: Record<ReportKind, object[]> = { error: [], csp: [], performance: [] };
  const pendingErrors = new Map<string, ErrorReport>();
  let errorsThisPage = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stoppers: Array<() => void> = [];

  const flush = (atExit: boolean): Promise<void> => {
    clearTimeout(timer);
    timer = undefined;
    pendingErrors.clear();
    const sends: Promise<void>[] = [];
    for (const kind of Object.keys(queues) as ReportKind[]) {
      const queue = queues[kind];
      while (queue.length) {
        const batch = queue.splice(0, MAX_BATCH);
        sends.push(post(endpoints[kind], JSON.stringify(batch.length == 1 ? batch[0] : batch), atExit));
      }
    }
    return Promise.all(sends).then(() => {});
  };

  const onTimer = monitor(() => flush(false));

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
    if (kind == 'error') {
      const errorReport = value as ErrorReport;
      const key = errorKey(errorReport);
      const same = pendingErrors.get(key);
      // Identical errors waiting in the queue are folded into one report with a count.
      if (same) {
        same.count = (same.count || 1) + 1;
        return;
      }
      if (++errorsThisPage > MAX_ERRORS_PER_PAGE) return;
      errorReport.session_id = sessionId;
      pendingErrors.set(key, errorReport);
    }
    queues[kind].push(value);
    timer ??= setTimeout(onTimer, FLUSH_DELAY);
  };

  const context: BeaconContext = { report: monitor(report), endpoints, sessionId };

  // Page exit: flush on hidden and on pagehide, never on unload (it makes pages ineligible
  // for the back/forward cache).
  const onHidden = monitor(() => {
    if (document.visibilityState == 'hidden') flush(true);
  });
  const onPageHide = monitor(() => flush(true));
  addEventListener('visibilitychange', onHidden, true);
  addEventListener('pagehide', onPageHide, true);
  stoppers.push(() => {
    removeEventListener('visibilitychange', onHidden, true);
    removeEventListener('pagehide', onPageHide, true);
  });

  for (const capture of options.capture || []) {
    const stop = monitor(capture)(context);
    if (stop) stoppers.push(stop);
  }

  return {
    captureError: monitor((error: unknown) => report('error', toErrorReport(error, 'manual'))),
    flush: () => monitor(flush)(false) || Promise.resolve(),
    stop: monitor(() => {
      flush(false);
      for (const stop of stoppers.splice(0)) monitor(stop)();
    }),
  };
};
