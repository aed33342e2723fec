import type { Metric } from 'web-vitals';
import type { BeaconContext, Capture, OwnJson } from './init';
import { monitor } from './lib/monitor';
import { randomId } from './lib/randomId';
import type { WirePerformanceSession } from './lib/wire';

/** Options of `vitals()`. */
export interface VitalsOptions {
  /** Share of page views whose session is sent, 0..1 (`data-sample-rate`). Default 1. */
  sampleRate?: number;
}

/** A metric as web-vitals reports it; `sitebeacon/attribution` adds a bounded `attribution`. */
export type ReportedMetric = Metric & { attribution?: Record<string, string> };

/**
 * Subscribes a listener to the page's metrics, with the capture's context for what it installs
 * (a listener added through `context._listen` is removed by `stop()`); returns what unsubscribes it.
 */
export type MetricSource = (listener: (metric: ReportedMetric) => void, context: BeaconContext) => (() => void) | void;

/** What a session sends of a metric: every field web-vitals gives except `name` (the key) and `entries`. */
export type SentMetric = Omit<ReportedMetric, 'name' | 'entries'>;

/**
 * The session as sent: the wire format's (lib/wire.ts); and for init, its queue key and its own
 * serializer (OwnJson), neither of them sent.
 */
type Session = WirePerformanceSession & { _key?: string; _json: OwnJson };

/**
 * The performance session of `vitals()`, whatever reports the metrics: one session per page view
 * (a new one after a back/forward cache restore), sent as soon as it has a metric and again with
 * every change. A metric of the page's own load goes to the first session even when it is reported
 * after a restore (as when web-vitals was registered late, from `beacon.vitals.js`).
 *
 * @example
 * vitalsSession((listener) => { onLCP(listener); return () => {}; }, { sampleRate: 0.5 })
 */
export const vitalsSession =
  (source: MetricSource, { sampleRate = 1 }: VitalsOptions = {}): Capture =>
  (context) => {
    let current: Session | undefined;
    const start = (sessionId: string): Session | undefined => {
      // The newest body sent: an older snapshot still waiting for a retry is superseded by it.
      let newest: string;
      const session: Session = {
        session_id: sessionId,
        page_url: location.href,
        started_at: Date.now(),
        metrics: {},
        _key: sessionId,
        // As beforeSend left it (a copy keeps this method), with its zeros: a CLS of 0 is a value (lib/toWireJson.ts).
        _json(serializeOrSent) {
          return typeof serializeOrSent == 'string'
            ? serializeOrSent != newest
            : (newest = serializeOrSent({ ...this, _key: undefined }, true));
        },
      };
      return (current = Math.random() < sampleRate ? session : undefined);
    };
    const first = start(context._sessionId);

    // The session itself is queued, not a copy: what is sent at the next flush is its newest state,
    // its URLs (the page's, the navigation's) cleaned then (lib/toWireJson.ts).
    const onMetric = monitor(({ name, entries, ...fields }: ReportedMetric) => {
      const session = fields.navigationType == 'back-forward-cache' ? current : first;
      if (!session) return;
      // web-vitals says how the page was reached, bfcache restores included.
      session.navigation_type ||= fields.navigationType;
      session.metrics[name] = fields;
      context._report('performance', session);
    });

    context._listen('pageshow', (event: PageTransitionEvent) => event.persisted && start(randomId()), true);
    return source(onMetric, context);
  };
