import { onCLS, onFCP, onINP, onLCP, onTTFB, type Metric } from 'web-vitals';
import type { Capture } from './init';
import { fanOut } from './lib/fanOut';
import { vitalsSession, type VitalsOptions } from './vitalsSession';

const subscribe = /* @__PURE__ */ fanOut<Metric>((dispatch) => {
  for (const on of [onCLS, onFCP, onINP, onLCP, onTTFB]) on(dispatch);
});

/**
 * Captures Core Web Vitals (LCP, INP, CLS) and FCP and TTFB with web-vitals, as one performance
 * session per page view (a new one after a back/forward cache restore). The session is sent as
 * soon as it has a metric and again with every change; the final INP and CLS arrive when the page
 * is hidden. Each metric carries every field web-vitals gives except `name` and `entries`.
 *
 * @example
 * init({ siteKey: 'KEY', ingestOrigin: 'https://in.example', capture: [vitals({ sampleRate: 0.5 })] });
 */
export const vitals = (options?: VitalsOptions): Capture => vitalsSession(subscribe, options);
