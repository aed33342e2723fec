/**
 * web-vitals' thresholds: at or below the first a value is "good", above the second "poor"
 * (https://web.dev/articles/vitals; web-vitals `LCPThresholds`, `INPThresholds`, ...).
 * The collector rates values itself rather than trusting the rating a client sent.
 */
export const VITALS_THRESHOLDS: Record<string, readonly [good: number, poor: number]> = {
  LCP: [2500, 4000],
  INP: [200, 500],
  CLS: [0.1, 0.25],
  FCP: [1800, 3000],
  TTFB: [800, 1800],
};
