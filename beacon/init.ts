import { resolveEndpoints, type EndpointOptions, type Endpoints } from './config';
import { batches } from './lib/batches';
import { monitor, whenContained } from './lib/monitor';
import { randomId } from './lib/randomId';
import { toErrorReport } from './lib/errorReport';
import { toWireJson } from './lib/toWireJson';
import { createTransport, MAX_BODY_BYTES, type TransportState } from './transport';

/** The kinds of report, one endpoint each. */
export type ReportKind = keyof Endpoints;

/**
 * What a capture (`errors()`, `csp()`, `vitals()`) receives from `init`. Its members are
 * `_`-prefixed: internal, and mangled in the minified script.
 */
export interface BeaconContext extends TransportState {
  /**
   * Queues a report. A report identical to one still queued (its time aside) is folded into
   * it: an error counts up, a CSP report is dropped. A report with its own `_json` (a performance
   * session, vitalsSession.ts) is queued by its `_key`, once, outside the per-page cap, and sent as
   * its `_json` gives it at the flush.
   */
  _report(kind: ReportKind, report: object): void;
  /** Set when the page's CSP blocks the collector: nothing is sent any more, for good (transport.ts). */
  _blocked?: boolean;
  /** The resolved endpoints, so a capture can recognise the collector's own URLs. */
  _endpoints: Endpoints;
  /** Identifies this page view. */
  _sessionId: string;
  /**
   * Adds a window listener, guarded by monitor(), that `stop()` removes: a capture that only
   * listens returns nothing.
   */
  _listen<E extends Event>(type: string, listener: (event: E) => unknown, capture?: boolean): void;
  /** What `_listen` added, guarded: for `stop()`, and for events that happened before the beacon (earlyEvents.ts). */
  _listeners: Array<[type: string, listener: (event: Event) => unknown, capture?: boolean]>;
}

/** Installs listeners for one kind of capture; returns what removes them. */
export type Capture = (context: BeaconContext) => (() => void) | void;

/** Options of `init()`. */
export interface BeaconOptions extends EndpointOptions {
  /** What to capture, e.g. `[errors(), csp(), vitals()]`. Only what is imported here is bundled. */
  capture?: Capture[];
  /**
   * Sees every report before it is queued, as captured: return it (edited or not) to send it, or
   * `null` / `false` to drop it. Its own exceptions are contained: the report is then sent as it was.
   * What it returns is sent the way every report is (lib/toWireJson.ts): URLs in its strings lose
   * their credentials and fragments, and empty fields are left out. A performance session carries
   * two internal members, `_key` and `_json` (vitalsSession.ts; never sent): edit it in place or
   * return a spread copy, which keeps them; one rebuilt from JSON is sent as an ordinary report.
   */
  beforeSend?: (report: object, kind: ReportKind) => object | null | false | undefined | void;
  /**
   * The site's release the page runs, e.g. `'1.4.2'` or a commit hash (`data-release`), and its
   * environment, e.g. `'production'` (`data-environment`): sent on every error report and
   * performance session, at most 200 characters each (docs/issues.md). Left out when not given.
   * Added after `beforeSend`, as the page view's session id is.
   */
  release?: string;
  environment?: string;
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
/**
 * Distinct error and CSP reports one page view may send: a page throwing in a loop stays a few
 * reports. It also keeps every error array within the collector's 50 (docs/wire-format.md, "Limits").
 */
const MAX_REPORTS_PER_PAGE = 25;

/**
 * A report's own serializer (a performance session's, vitalsSession.ts), called as its method:
 * given toWireJson, the body to send now, kept as its newest; given a body sent before, whether a
 * newer one superseded it, so that the older one is not retried (transport.ts).
 */
export type OwnJson = (serializeOrSent: typeof toWireJson | string) => string | boolean;

/**
 * A queued report: an error report, a CSP report or a session. `_key` and `_json` are a session's
 * (vitalsSession.ts): its queue key, its id, which also keeps it outside the per-page cap; its serializer.
 */
type Queued = { session_id?: string; count?: number; release?: string; environment?: string; _key?: string; _json?: OwnJson };

const noop = () => {};
const noopBeacon: Beacon = { captureError: noop, flush: async () => {}, stop: noop };

/**
 * init() where there is a page. Defined before init, which calls it once, so that a bundler inlines
 * it there: an app that ignores init's handle then drops it, and the server-side handle with it.
 */
const start = (options: BeaconOptions): Beacon => {
  const endpoints = resolveEndpoints(options, location.origin);
  const sentThisPage: Record<string, number> = {};
  // What the next flush sends, by a key that makes duplicates meet: an error or CSP report's
  // content (its time aside), a session's id.
  let queued: Record<string, [ReportKind, Queued]> = {};
  let timer: ReturnType<typeof setTimeout> | undefined;

  const flush = (atExit?: boolean) => {
    // clearTimeout returns undefined: the timer is cleared and forgotten in one statement.
    timer = clearTimeout(timer) as undefined;
    // Errors go in arrays; a CSP report (the CSP2 shape is one report) and a session go alone, a
    // session as its own _json gives it, which also tells the transport when a newer snapshot
    // supersedes an unsent older one.
    const errorReports: Queued[] = [];
    const sent = [];
    for (const [kind, report] of Object.values(queued))
      kind == 'error' ? errorReports.push(report) : sent.push(transport(kind, report._json ? (report._json(toWireJson) as string) : toWireJson(report), atExit, report._json));
    queued = {};
    if (errorReports[0]) for (const body of batches(errorReports, MAX_BODY_BYTES)) sent.push(transport('error', body, atExit));
    return Promise.all(sent);
  };

  const report = (kind: ReportKind, queue: Queued | null | false | undefined | void) => {
    // A throwing beforeSend leaves the report as it was; without one, every report is kept.
    try {
      if (options.beforeSend) queue = options.beforeSend(queue as Queued, kind);
    } catch {}
    if (!queue) return;
    // Not on a CSP report: its CSP2 shape is the browser's own, which has no such fields.
    // Undefined when not given, and JSON leaves it out. A session has its own id.
    if (kind != 'csp') {
      queue.release = options.release;
      queue.environment = options.environment;
      if (kind == 'error') queue.session_id = context._sessionId;
    }
    // A session is queued as the live object, by its id: what is sent is its state at the flush.
    const key = kind + (queue._key || toWireJson({ ...queue, timestamp: 0 }));
    const same = queued[key];
    if (same) {
      if (kind == 'error') same[1].count = (same[1].count || 1) + 1;
      return;
    }
    if (!queue._key && (sentThisPage[kind] = (sentThisPage[kind] || 0) + 1) > MAX_REPORTS_PER_PAGE) return;
    queued[key] = [kind, queue];
    timer ??= setTimeout(onTimer, FLUSH_DELAY);
  };
  const onTimer = monitor(flush);

  const context: BeaconContext = {
    _report: monitor(report),
    _endpoints: endpoints,
    _sessionId: randomId(),
    _listen: (type, listener, capture) => {
      const guarded = monitor(listener) as EventListener;
      addEventListener(type, guarded, capture);
      context._listeners.push([type, guarded, capture]);
    },
    _listeners: [],
  };
  const transport = createTransport(context);

  // Page exit: flush when hidden and on pagehide, never on unload (it keeps pages out of the
  // back/forward cache). The hidden listener is on window in the bubble phase so that it runs
  // after web-vitals' capture-phase listener has reported the final CLS and INP.
  context._listen('visibilitychange', () => document.hidden && flush(true));
  context._listen('pagehide', () => flush(true));
  // The beacon's own contained errors: the first is reported, so that a beacon broken on some
  // page says so instead of going quiet (lib/monitor.ts).
  // Its stack, into the beacon's code, tells it apart; the next ones are contained silently.
  whenContained(monitor((error: unknown) => report('error', toErrorReport('manual', error))));
  // What each capture returns removes what it installed (a capture that only listens returns nothing).
  const stoppers = (options.capture || []).map((capture) => monitor(capture)(context));

  return {
    captureError: /* @__PURE__ */ monitor((error: unknown) => report('error', toErrorReport('manual', error))),
    flush: async () => {
      await onTimer();
    },
    stop: /* @__PURE__ */ monitor(() => {
      for (const stop of stoppers.splice(0)) if (stop) monitor(stop)();
      for (const [type, listener, capture] of context._listeners.splice(0)) removeEventListener(type, listener, capture);
      flush();
    }),
  };
};

/**
 * Starts the beacon.
 *
 * @example
 * import { init, errors, csp, vitals } from 'sitebeacon';
 * const beacon = init({ siteKey: 'KEY', ingestOrigin: 'https://in.example', capture: [errors(), csp(), vitals()] });
 * beacon.captureError(new Error('checkout failed'));
 */
export const init = (options: BeaconOptions): Beacon =>
  // Server-side rendering, workers: nothing to watch, nothing to send.
  globalThis.document ? start(options) : noopBeacon;
