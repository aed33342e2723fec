import { onCLS, onFCP, onINP, onLCP, onTTFB, type Metric } from 'web-vitals';
import type { Capture } from './init';
import { cleanUrl } from './lib/cleanUrl';
import { listen } from './lib/listen';
import { monitor } from './lib/monitor';
import { randomId } from './lib/randomId';

/** Options of `vitals()`. */
export interface VitalsOptions {
  /** Share of page views whose session is sent, 0..1 (`data-sample-rate`). Default 1. */
  sampleRate?: number;
}

interface Session {
  session_id: string;
  page_url: string;
  navigation_type?: string;
  started_at: number;
  metrics: Record<string, Omit<Metric, 'name' | 'entries'>>;
}

// web-vitals must be registered once per page (its docs: "only call onX once per page load");
// every running vitals() capture listens to that one registration.
let listeners: Set<(metric: Metric) => void> | undefined;

/**
 * Captures Core Web Vitals (LCP, INP, CLS) and FCP and TTFB with web-vitals, as one performance
 * session per page view (a new one after a back/forward cache restore). The session is sent as
 * soon as it has a metric and again with every change; the final INP and CLS arrive when the page
 * is hidden.
 *
 * @example
 * init({ siteKey: 'KEY', ingestOrigin: 'https://in.example', capture: [vitals({ sampleRate: 0.5 })] });
 */
export const vitals =
  ({ sampleRate = 1 }: VitalsOptions = {}): Capture =>
  (context) => {
    let session: Session | undefined;
    const start = (sessionId: string) => {
      session =
        Math.random() < sampleRate
          ? { session_id: sessionId, page_url: cleanUrl(location.href), started_at: Date.now(), metrics: {} }
          : undefined;
    };
    start(context._sessionId);

    // The session itself is queued, not a copy: what is sent at the next flush is its newest state.
    const onMetric = monitor(({ name, entries, ...fields }: Metric) => {
      if (!session) return;
      // web-vitals says how the page was reached, bfcache restores included.
      session.navigation_type ||= fields.navigationType;
      session.metrics[name] = fields;
      context._report('performance', session);
    });

    if (!listeners) {
      const registered = (listeners = new Set());
      const dispatch = (metric: Metric) => registered.forEach((listener) => listener(metric));
      for (const on of [onCLS, onFCP, onINP, onLCP, onTTFB]) on(dispatch);
    }
    listeners.add(onMetric);
    const unlisten = listen(
      'pageshow',
      monitor((event: PageTransitionEvent) => event.persisted && start(randomId())),
      true,
    );
    return () => {
      listeners!.delete(onMetric);
      unlisten();
    };
  };
