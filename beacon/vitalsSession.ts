import type { Metric } from 'web-vitals';
import type { BeaconContext, Capture } from './init';
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

/** The session as sent: the wire format's (lib/wire.ts). */
type Session = WirePerformanceSession;

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
    const start = (sessionId: string): Session | undefined =>
      (current =
        Math.random() < sampleRate
          ? { session_id: sessionId, page_url: location.href, started_at: Date.now(), metrics: {} }
          : undefined);
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
