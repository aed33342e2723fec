import type { Metric } from 'web-vitals';
import type { Capture } from './init';
import { cleanUrl } from './lib/cleanUrl';
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

/** Subscribes a listener to the page's metrics; returns what unsubscribes it. */
export type MetricSource = (listener: (metric: ReportedMetric) => void) => () => void;

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

    // The session itself is queued, not a copy: what is sent at the next flush is its newest state.
    const onMetric = monitor(({ name, entries, ...fields }: ReportedMetric) => {
      const session = fields.navigationType == 'back-forward-cache' ? current : first;
      if (!session) return;
      // The page URL loses its credentials and fragment here, not at start: compiling cleanUrl's
      // expressions is part of the start's cost (docs/performance.md, "The beacon"); cleaning a clean URL changes nothing.
      session.page_url = cleanUrl(session.page_url);
      // The navigation entry's name is the URL with its fragment (Firefox, fixture beacon.json).
      if (fields.navigationURL) fields.navigationURL = cleanUrl(fields.navigationURL);
      // web-vitals says how the page was reached, bfcache restores included.
      session.navigation_type ||= fields.navigationType;
      session.metrics[name] = fields;
      context._report('performance', session);
    });

    context._listen('pageshow', (event: PageTransitionEvent) => event.persisted && start(randomId()), true);
    return source(onMetric);
  };
