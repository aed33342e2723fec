import { onCLS, onFCP, onINP, onLCP, onTTFB, type MetricWithAttribution } from 'web-vitals/attribution';
import type { Capture } from './init';
import { cleanUrl } from './lib/cleanUrl';
import { fanOut } from './lib/fanOut';
import { vitalsSession, type ReportedMetric, type VitalsOptions } from './vitalsSession';

/**
 * The attribution fields sent, web-vitals' own names: LCP's `target` (the element's selector) and
 * `url` (its resource), INP's `interactionTarget`, CLS's `largestShiftTarget`. The rest (entries,
 * timings, long animation frames) can be large and is not sent.
 */
const FIELDS = ['target', 'url', 'interactionTarget', 'largestShiftTarget'];
/** web-vitals cuts selectors to 100 characters; a resource URL is bounded here. */
const MAX_LENGTH = 1000;

const bounded = ({ attribution, ...metric }: MetricWithAttribution): ReportedMetric => {
  const sent: Record<string, string> = {};
  for (const field of FIELDS) {
    const value = (attribution as unknown as Record<string, unknown>)[field];
    if (value && typeof value == 'string') sent[field] = cleanUrl(value).slice(0, MAX_LENGTH);
  }
  return (Object.keys(sent).length ? { ...metric, attribution: sent } : metric) as ReportedMetric;
};

const subscribe = /* @__PURE__ */ fanOut<ReportedMetric>((dispatch) => {
  for (const on of [onCLS, onFCP, onINP, onLCP, onTTFB]) on((metric: MetricWithAttribution) => dispatch(bounded(metric)));
});

/**
 * `vitals()` with a small, bounded `attribution` for LCP, INP and CLS (see FIELDS), built on
 * `web-vitals/attribution`. A separate entry, `sitebeacon/attribution`, so that the default builds
 * do not carry web-vitals' attribution code, which costs kilobytes more (`npm run size` prints it).
 *
 * @example
 * import { init, errors } from 'sitebeacon';
 * import { vitals } from 'sitebeacon/attribution';
 * init({ siteKey: 'KEY', ingestOrigin: 'https://in.example', capture: [errors(), vitals()] });
 */
export const vitals = (options?: VitalsOptions): Capture => vitalsSession(subscribe, options);

export type { VitalsOptions };
