import type { StoredPerformanceSession } from '../collector/index';
import type { Verdict } from './verdict';

/** The metrics the beacon sends (web-vitals). */
export type MetricName = 'LCP' | 'INP' | 'CLS' | 'FCP' | 'TTFB';

/** `toHaveVitals({ LCP: { below: 2500 }, CLS: { below: 0.1 } })`: every page view's value under the bound. */
export type VitalsExpectation = Partial<Record<MetricName, { below: number }>>;

/**
 * The performance entry type each metric is measured from (web-vitals: onLCP observes
 * `largest-contentful-paint`, onCLS `layout-shift`, onINP `event`, onFCP `paint`, onTTFB the
 * navigation entry). A browser that does not list it in `PerformanceObserver.supportedEntryTypes`
 * cannot produce the metric: Firefox has no `layout-shift` (no CLS), Safari no
 * `largest-contentful-paint` and no `event` before Safari 26 (no LCP, no INP).
 */
export const ENTRY_TYPE: Record<MetricName, string> = {
  LCP: 'largest-contentful-paint',
  CLS: 'layout-shift',
  INP: 'event',
  FCP: 'paint',
  TTFB: 'navigation',
};

/** Used only before any page has said what it supports (every page closed before the first flush). */
const UNSUPPORTED_BY_NAME: Record<string, MetricName[]> = { firefox: ['CLS'], webkit: ['LCP', 'INP'] };

/** Why a metric may still be missing, for the message. */
const MISSING_HINT: Record<MetricName, string> = {
  LCP: 'LCP comes from the largest text or image painted while the page is visible',
  INP: 'INP is measured from interactions: click, tap or type on the page before asserting it',
  CLS: 'CLS comes from layout shifts; a page without any reports 0 once it has painted',
  FCP: 'FCP comes from the first paint of text or an image',
  TTFB: 'TTFB comes from the navigation entry',
};

const format = (metric: MetricName, value: number) => (metric == 'CLS' ? String(Math.round(value * 10000) / 10000) : `${Math.round(value)} ms`);

/**
 * Whether a browser can measure a metric: from its supported entry types when a page told them,
 * else from its name.
 *
 * @example
 * canMeasure('CLS', ['paint', 'navigation'], 'firefox') // false
 */
export const canMeasure = (metric: MetricName, entryTypes: string[] | undefined, browserName: string) =>
  entryTypes ? entryTypes.includes(ENTRY_TYPE[metric]) : !UNSUPPORTED_BY_NAME[browserName]?.includes(metric);

/**
 * `toHaveVitals(expectation)`: for each metric asked, every stored page view that has it is under
 * the bound, and at least one has it. A metric this browser cannot measure is not checked: it is
 * named in `notes` (the matcher turns them into annotations), never passed or failed in silence.
 *
 * @example
 * vitals(sessions, { LCP: { below: 2500 } }, ['largest-contentful-paint'], 'chromium').pass
 */
export const vitals = (
  sessions: StoredPerformanceSession[],
  expectation: VitalsExpectation,
  entryTypes: string[] | undefined,
  browserName: string,
): Verdict => {
  const lines: string[] = [];
  const notes: string[] = [];
  let pass = true;
  let final = false;
  const metrics = Object.keys(expectation) as MetricName[];
  if (!metrics.length) throw new TypeError('toHaveVitals: name at least one metric, e.g. { LCP: { below: 2500 } }');
  for (const metric of metrics) {
    const below = expectation[metric]!.below;
    if (!(metric in ENTRY_TYPE)) throw new TypeError(`toHaveVitals: unknown metric "${metric}" (one of ${Object.keys(ENTRY_TYPE).join(', ')})`);
    if (!canMeasure(metric, entryTypes, browserName)) {
      const note = `${metric} not checked: ${browserName} cannot measure it (no "${ENTRY_TYPE[metric]}" performance entries)`;
      notes.push(note);
      lines.push(`  ${metric}: ${note}`);
      continue;
    }
    const values = sessions.flatMap((session) => {
      const value = session.metrics[metric]?.value;
      return typeof value == 'number' ? [{ value, page: session.page_url ?? 'unknown page' }] : [];
    });
    if (!values.length) {
      pass = false;
      lines.push(`  ${metric}: not received (${MISSING_HINT[metric]})`);
      continue;
    }
    const worst = values.reduce((a, b) => (b.value > a.value ? b : a));
    const over = values.filter(({ value }) => value >= below);
    if (over.length) {
      pass = false;
      // Each page view's value only grows (the largest paint, the shifts summed, the slowest interaction).
      final = true;
      lines.push(`  ${metric}: ${format(metric, worst.value)} on ${worst.page}, not below ${format(metric, below)}` + (over.length > 1 ? ` (${over.length} page views over)` : ''));
    } else {
      lines.push(`  ${metric}: ${format(metric, worst.value)}${values.length > 1 ? ` at worst, over ${values.length} page views` : ` on ${worst.page}`}, below ${format(metric, below)}`);
    }
  }
  return {
    pass,
    final,
    expected: metrics.map((metric) => `${metric} below ${format(metric, expectation[metric]!.below)}`).join(', '),
    received: `${sessions.length == 1 ? '1 page view' : `${sessions.length} page views`}\n${lines.join('\n')}`,
    notes,
  };
};
