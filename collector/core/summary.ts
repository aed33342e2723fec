import type { CspDisposition } from './cspDisposition';
import { share, VITALS_THRESHOLDS } from './vitals';

/** One error group of the summary: reports of one fingerprint. */
export interface ErrorGroup {
  fingerprint: string;
  error_type: string;
  error_name?: string;
  error_message: string;
  /** Reports stored for the group. */
  reports: number;
  /** Occurrences: reports with their folded `count`s added up. */
  count: number;
  first_seen: string;
  last_seen: string;
}

/** CSP violations of one directive and blocked host, blocked (`enforce`) or only reported (`report`). */
export interface CspGroup {
  directive: string;
  blocked_host: string;
  disposition: CspDisposition;
  reports: number;
}

/** Per metric: how many sessions have it, their p75, and the share rated good / needs improvement / poor. */
export interface MetricSummary {
  samples: number;
  p75: number | null;
  good: number;
  needs_improvement: number;
  poor: number;
}

/** `GET /api/v1/sites/{site_key}/summary`. */
export interface Summary {
  errors: ErrorGroup[];
  csp: CspGroup[];
  vitals: Record<string, MetricSummary>;
}

/** An error group as a store counts it: times in milliseconds. */
export type ErrorGroupRow = Omit<ErrorGroup, 'first_seen' | 'last_seen' | 'error_name'> & {
  error_name?: string | null | undefined;
  first_seen: number;
  last_seen: number;
};

/** A metric as a store counts it: samples at or under each threshold, and the value at the p75 rank. */
export interface MetricCounts {
  samples: number;
  good: number;
  needs_improvement: number;
  poor: number;
  p75: number | null;
}

/**
 * One error group as the read API shows it, from a store's row: times as ISO strings, no
 * `error_name` where the store has none.
 *
 * @example
 * errorGroupOf({ fingerprint: 'f', error_type: 'javascript_error', error_message: 'x', reports: 1, count: 1, first_seen: 0, last_seen: 0 }).first_seen
 * // '1970-01-01T00:00:00.000Z'
 */
export const errorGroupOf = ({ error_name, first_seen, last_seen, ...group }: ErrorGroupRow): ErrorGroup => ({
  ...group,
  ...(error_name == null ? {} : { error_name }),
  first_seen: new Date(first_seen).toISOString(),
  last_seen: new Date(last_seen).toISOString(),
});

/**
 * One metric's figures from what a store counted: counts as shares of the samples, no p75 without
 * samples (none counted: 0 samples).
 *
 * @example
 * metricSummaryOf({ samples: 4, good: 3, needs_improvement: 1, poor: 0, p75: 1800 }).good // 0.75
 */
export const metricSummaryOf = (counts: MetricCounts = { samples: 0, good: 0, needs_improvement: 0, poor: 0, p75: null }): MetricSummary => ({
  samples: counts.samples,
  p75: counts.samples ? counts.p75 : null,
  good: share(counts.good, counts.samples),
  needs_improvement: share(counts.needs_improvement, counts.samples),
  poor: share(counts.poor, counts.samples),
});

/**
 * The summary from what a store counted: times as ISO strings, counts as shares, every metric
 * web-vitals rates present (with 0 samples when none arrived).
 *
 * @example
 * buildSummary({ errorGroups: [], cspGroups: [], metrics: new Map([['LCP', { samples: 1, good: 1, needs_improvement: 0, poor: 0, p75: 1800 }]]) })
 */
export const buildSummary = ({
  errorGroups,
  cspGroups,
  metrics,
}: {
  errorGroups: ErrorGroupRow[];
  cspGroups: CspGroup[];
  metrics: ReadonlyMap<string, MetricCounts>;
}): Summary => ({
  errors: errorGroups.map(errorGroupOf),
  csp: cspGroups,
  vitals: Object.fromEntries([...VITALS_THRESHOLDS.keys()].map((name) => [name, metricSummaryOf(metrics.get(name))])),
});
