import { CLSThresholds, FCPThresholds, INPThresholds, LCPThresholds, TTFBThresholds } from 'web-vitals';

/**
 * web-vitals' own thresholds (https://web.dev/articles/vitals): at or below the first a value is
 * "good", above the second "poor". The collector rates values itself rather than trusting the
 * rating a client sent.
 */
export const VITALS_THRESHOLDS: ReadonlyMap<string, readonly [good: number, poor: number]> = new Map([
  ['LCP', LCPThresholds],
  ['INP', INPThresholds],
  ['CLS', CLSThresholds],
  ['FCP', FCPThresholds],
  ['TTFB', TTFBThresholds],
]);

export type Rating = 'good' | 'needs-improvement' | 'poor';

/**
 * The rating of one value of a known metric, or undefined for a metric web-vitals does not rate.
 *
 * @example
 * rateMetric('LCP', 2600) // 'needs-improvement'
 */
export const rateMetric = (name: string, value: number): Rating | undefined => {
  const thresholds = VITALS_THRESHOLDS.get(name);
  if (!thresholds) return undefined;
  return value <= thresholds[0] ? 'good' : value <= thresholds[1] ? 'needs-improvement' : 'poor';
};

/**
 * The 0-based rank of the 75th percentile by nearest rank: the smallest value with at least 75%
 * of the samples at or below it (what CrUX and web-vitals' reporting call p75).
 *
 * @example
 * p75Rank(4) // 2: of [1, 2, 3, 4] the p75 is 3
 */
export const p75Rank = (samples: number) => Math.max(0, Math.ceil(samples * 0.75) - 1);

/** `part / whole` rounded to 4 decimals; 0 when there is nothing. */
export const share = (part: number, whole: number) => (whole ? Math.round((part / whole) * 10_000) / 10_000 : 0);
