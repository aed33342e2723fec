import type { Metric } from 'web-vitals';
import type { Capture } from './init';
import { monitor } from './lib/monitor';
import { vitalsSession, type VitalsOptions } from './vitalsSession';

/** What `beacon.vitals.js` defines (see vitalsScript.ts). */
export type VitalsScript = (report: (metric: Metric) => void, reportAllChanges: boolean) => void;

/** Idle time may not come on a busy page; web-vitals is registered by then anyway. */
const IDLE_TIMEOUT = 2000;

/**
 * `vitals()` for the script tag, with web-vitals kept off the page's critical path: `beacon.vitals.js`
 * (web-vitals and nothing else) is loaded when the main thread is first idle, or at once when the
 * page is hidden first. Late registration loses nothing of the page's load: web-vitals observes
 * with `buffered: true`, so the paint, LCP, layout-shift and navigation entries from before are
 * delivered, and the event entries of slow interactions (104 ms and more: the Event Timing buffer).
 * Registered on a hidden page, web-vitals would wait for the next hide to report LCP, CLS and INP,
 * which may never come: there it reports every change at once (`reportAllChanges`).
 *
 * `src` is the second script's URL (beside beacon.js), `nonce` the one beacon.js was loaded with,
 * so a nonce-based policy runs it too.
 *
 * @example
 * lazyVitals('https://in.example/beacon.vitals.js', '', { sampleRate: 0.5 })
 */
export const lazyVitals = (src: string, nonce: string, options?: VitalsOptions): Capture =>
  vitalsSession((listener, context) => {
    let subscribed = true;
    let script: HTMLScriptElement | undefined;
    const hidden = () => document.hidden;
    const load = monitor(() => {
      if (script) return;
      script = document.createElement('script');
      script.src = src;
      script.nonce = nonce;
      // The script has run when its load event fires: its global is there.
      script.onload = monitor(() =>
        (window as { sitebeaconVitals?: VitalsScript }).sitebeaconVitals?.((metric) => subscribed && listener(metric), hidden()),
      );
      document.head.append(script);
    });
    context._listen('visibilitychange', () => hidden() && load());
    // Asked for from the next task: requesting an idle callback is the dearest call of the start (docs/performance.md, "The beacon").
    setTimeout(monitor(() => ((globalThis.requestIdleCallback || setTimeout) as typeof requestIdleCallback)(load, { timeout: IDLE_TIMEOUT })));
    return () => {
      subscribed = false;
    };
  }, options);
