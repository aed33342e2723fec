import { onCLS, onFCP, onINP, onLCP, onTTFB, type Metric } from 'web-vitals';

/**
 * The IIFE entry of `beacon.vitals.js`: web-vitals and this one function, which the build assigns
 * to the global `sitebeaconVitals`. beacon.js loads the script when the page is first idle (see
 * lazyVitals.ts) and calls it once it has run: the five metrics are registered there, once per page.
 *
 * @example
 * sitebeaconVitals((metric) => console.log(metric.name, metric.value), document.visibilityState == 'hidden');
 */
export default (report: (metric: Metric) => void, reportAllChanges: boolean) => {
  for (const on of [onCLS, onFCP, onINP, onLCP, onTTFB]) on(report, { reportAllChanges });
};
