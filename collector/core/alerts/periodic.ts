import type { IssueLifecycleState } from '../issueLifecycle';
import { rateMetric } from '../vitals';
import type { RaisedAlert } from './raised';
import { issueAlert, type AlertRule } from './rules';

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;

/**
 * A spike (docs/alerts.md, "Spikes"): an issue's usual rate is its average over the seven whole UTC
 * days before today (a day it did not occur counts as zero), scaled to the rule's window; with a
 * `factor`, the window's occurrences reach `factor` times that (and at least `factor` times one),
 * and never fewer than SPIKE_MIN_OCCURRENCES: one report of a quiet issue is no spike.
 */
export const SPIKE_BASELINE_DAYS = 7;
export const SPIKE_MIN_OCCURRENCES = 5;
/** The issues a spike rule looks at per run: those with the most occurrences in its window. */
export const SPIKE_ISSUES_PER_RULE = 100;

/**
 * The ranges a spike rule reads at `now`: its window (the last `window_minutes`, to `now`), the
 * baseline's whole days (UTC day numbers, `[from, to)`), and the window's key (the start of the
 * window-long period `now` is in: two collectors running in it write one alert).
 *
 * @example
 * spikeRanges(10, now); // { since: now - 600_000, until: now, fromDay: today - 7, toDay: today, key: ... }
 */
export const spikeRanges = (windowMinutes: number, now: number) => {
  const windowMs = windowMinutes * MINUTE;
  const today = Math.floor(now / DAY);
  return { since: now - windowMs, until: now, fromDay: today - SPIKE_BASELINE_DAYS, toDay: today, key: Math.floor(now / windowMs) * windowMs };
};

/**
 * Whether `occurrences` in the rule's window are a spike, given `baseline`, the issue's
 * occurrences over the baseline's days.
 *
 * @example
 * isSpike({ window_minutes: 10, count: 50 }, 50, 0); // true
 * isSpike({ window_minutes: 60, factor: 3 }, 4, 0); // false: fewer than 5
 */
export const isSpike = (rule: Pick<AlertRule, 'window_minutes' | 'factor' | 'count'>, occurrences: number, baseline: number): boolean => {
  if (rule.count !== undefined) return occurrences >= rule.count;
  if (rule.factor === undefined || rule.window_minutes === undefined) return false;
  const usual = (baseline * rule.window_minutes) / (SPIKE_BASELINE_DAYS * 1440);
  return occurrences >= Math.max(SPIKE_MIN_OCCURRENCES, rule.factor * Math.max(usual, 1));
};

/** One issue's occurrences in a spike rule's window and over its baseline days. */
export interface SpikeCount {
  fingerprint: string;
  occurrences: number;
  baseline: number;
}

/**
 * The alerts a spike rule raises at `now`: one per issue whose window is a spike (isSpike), keyed by
 * the window's period, its cooldown per issue.
 *
 * @example
 * spikeAlerts({ rule, site: { key: 'shop', name: 'Shop' }, counts, issues, now });
 */
export const spikeAlerts = (input: {
  rule: AlertRule;
  site: { key: string; name: string };
  counts: readonly SpikeCount[];
  issues: ReadonlyMap<string, IssueLifecycleState>;
  now: number;
}): RaisedAlert[] => {
  const { rule, site, now } = input;
  const { key } = spikeRanges(rule.window_minutes ?? 1, now);
  return input.counts.flatMap(({ fingerprint, occurrences, baseline }) => {
    const issue = input.issues.get(fingerprint);
    if (!issue || !isSpike(rule, occurrences, baseline)) return [];
    const window = { count: occurrences, minutes: rule.window_minutes ?? 1 };
    const { id: _, ...alert } = issueAlert({ id: '', kind: 'spike', site, issue, window, now });
    return [{ site_key: site.key, rule: String(rule.id), subject: fingerprint, window: key, cooldown_minutes: rule.cooldown_minutes, channels: rule.channels, alert, created_at: now }];
  });
};

/**
 * The ranges a vital_poor rule compares (docs/alerts.md, "Poor vitals"), whole hours so that every
 * collector running within one hour compares the same: the 24 hours before the hour `now` is in,
 * and the 24 hours an hour earlier; the hour is the alert's key.
 *
 * @example
 * vitalRanges(Date.UTC(2026, 0, 2, 10, 30)); // { hour: 10:00, current: [01-01 10:00, 01-02 10:00), previous: [01-01 09:00, 01-02 09:00) }
 */
export const vitalRanges = (now: number) => {
  const hour = Math.floor(now / HOUR) * HOUR;
  return { hour, current: [hour - DAY, hour] as const, previous: [hour - DAY - HOUR, hour - HOUR] as const };
};

/** Fewer samples than this in the last 24 hours are no p75 to alert on. */
export const VITAL_MIN_SAMPLES = 20;

/** A metric's samples in a range and their p75 (undefined when there are none). */
export interface VitalP75 {
  samples: number;
  p75: number | undefined;
}

/**
 * Whether a metric's p75 turned poor: poor over the current 24 hours (with at least
 * VITAL_MIN_SAMPLES samples) and not poor over the previous ones.
 *
 * @example
 * turnedPoor('LCP', { samples: 40, p75: 4100 }, { samples: 40, p75: 3900 }); // true
 */
export const turnedPoor = (metric: string, current: VitalP75, previous: VitalP75): boolean =>
  current.p75 !== undefined &&
  current.samples >= VITAL_MIN_SAMPLES &&
  rateMetric(metric, current.p75) == 'poor' &&
  !(previous.p75 !== undefined && previous.samples >= VITAL_MIN_SAMPLES && rateMetric(metric, previous.p75) == 'poor');

/**
 * The alert a vital_poor rule raises at `now`, or undefined when its metric did not turn poor.
 *
 * @example
 * vitalAlert({ rule, site, current, previous, now });
 */
export const vitalAlert = (input: { rule: AlertRule; site: { key: string; name: string }; current: VitalP75; previous: VitalP75; now: number }): RaisedAlert | undefined => {
  const { rule, site, current, now } = input;
  const metric = rule.metric ?? '';
  if (!turnedPoor(metric, current, input.previous)) return undefined;
  return {
    site_key: site.key,
    rule: String(rule.id),
    subject: `vital:${metric}`,
    window: vitalRanges(now).hour,
    cooldown_minutes: rule.cooldown_minutes,
    channels: rule.channels,
    alert: { kind: 'vital_poor', site, vital: { metric, p75: current.p75! }, url: '', created_at: new Date(now).toISOString() },
    created_at: now,
  };
};

/** An enforced CSP block as csp_enforced_new sees it. */
export interface EnforcedBlock {
  directive: string;
  blocked_host: string;
  page_url?: string | undefined;
}

/**
 * The alert a csp_enforced_new rule raises for a block on a directive and host the site had not
 * had blocked (docs/alerts.md, "New CSP blocks"): once per rule and pair (its key has no window).
 *
 * @example
 * cspAlert({ rule, site, block: { directive: 'script-src', blocked_host: 'cdn.evil.example' }, now });
 */
export const cspAlert = (input: { rule: AlertRule; site: { key: string; name: string }; block: EnforcedBlock; now: number }): RaisedAlert => {
  const { rule, site, block, now } = input;
  return {
    site_key: site.key,
    rule: String(rule.id),
    subject: cspSubject(block),
    window: 0,
    cooldown_minutes: rule.cooldown_minutes,
    channels: rule.channels,
    alert: { kind: 'csp_enforced_new', site, csp: { directive: block.directive, blocked_host: block.blocked_host, page_url: block.page_url }, url: '', created_at: new Date(now).toISOString() },
    created_at: now,
  };
};

/** The subject of a CSP block's alerts: its directive and host. */
export const cspSubject = (block: Pick<EnforcedBlock, 'directive' | 'blocked_host'>) => `csp:${block.directive} ${block.blocked_host}`;
