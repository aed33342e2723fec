import type { IssueLifecycleState } from '../issueLifecycle';
import type { Alert } from './alert';
import type { WebhookFormat } from './webhookBody';

/**
 * Alert rules (docs/alerts.md, "Rules"): what a site is alerted of, on which channels, at most once
 * per subject (an issue, a CSP block, a metric) and rule per cooldown. `new_issue`, `regression` and
 * `csp_enforced_new` are evaluated at ingest, in the transaction that stores the report (the
 * outbox); `spike` and `vital_poor` by serve's periodic evaluation (core/alerts/periodic.ts).
 */
export type RuleKind = 'new_issue' | 'regression' | 'spike' | 'csp_enforced_new' | 'vital_poor';

export const RULE_KINDS: readonly RuleKind[] = ['new_issue', 'regression', 'spike', 'csp_enforced_new', 'vital_poor'];

/** The kinds evaluated at ingest; `spike` and `vital_poor` are evaluated periodically (docs/alerts.md, "Rule kinds"). */
export const EVALUATED_KINDS: readonly RuleKind[] = ['new_issue', 'regression', 'csp_enforced_new'];

/**
 * What a kind's rule says beyond its channels (docs/alerts.md, "Rule kinds"): a spike's window and
 * its `factor` or absolute `count`; the metric of `vital_poor`.
 */
export interface RuleParams {
  window_minutes?: number | undefined;
  factor?: number | undefined;
  count?: number | undefined;
  metric?: string | undefined;
}

/** The metrics `vital_poor` watches: those web-vitals rates (core/vitals.ts). */
export const VITAL_POOR_METRICS: readonly string[] = ['LCP', 'INP', 'CLS', 'FCP', 'TTFB'];

/** A spike's window: a minute to a day. Its factor: above 1, up to 1000. Its count: a whole number from 1. */
export const SPIKE_LIMITS = { windowMinutes: [1, 1440], factor: [1, 1000], count: [1, 1_000_000_000] } as const;

const whole = (value: unknown, [low, high]: readonly [number, number]) => Number.isInteger(value) && (value as number) >= low && (value as number) <= high;

/**
 * Why a rule's parameters do not fit its kind, or undefined when they do: a spike needs
 * `window_minutes` and exactly one of `factor` or `count`; `vital_poor` one of VITAL_POOR_METRICS;
 * the other kinds none.
 *
 * @example
 * ruleParamsProblem('spike', { window_minutes: 10 }); // 'a spike rule needs factor or count'
 */
export const ruleParamsProblem = (kind: RuleKind, params: RuleParams): string | undefined => {
  const given = (Object.keys(params) as Array<keyof RuleParams>).filter((name) => params[name] !== undefined);
  const allowed: Record<RuleKind, string[]> = {
    new_issue: [], regression: [], csp_enforced_new: [], spike: ['window_minutes', 'factor', 'count'], vital_poor: ['metric'],
  };
  const extra = given.find((name) => !allowed[kind].includes(name));
  if (extra) return `a ${kind} rule takes no ${extra}`;
  if (kind == 'spike') {
    if (!whole(params.window_minutes, SPIKE_LIMITS.windowMinutes)) return 'a spike rule needs window_minutes, a whole number from 1 to 1440';
    if ((params.factor === undefined) == (params.count === undefined)) return 'a spike rule needs factor or count (one of them)';
    if (params.factor !== undefined && !(Number.isFinite(params.factor) && params.factor > SPIKE_LIMITS.factor[0] && params.factor <= SPIKE_LIMITS.factor[1])) {
      return 'a spike factor is a number above 1, at most 1000';
    }
    if (params.count !== undefined && !whole(params.count, SPIKE_LIMITS.count)) return 'a spike count is a whole number from 1';
  }
  if (kind == 'vital_poor' && !VITAL_POOR_METRICS.includes(params.metric ?? '')) return `a vital_poor rule needs metric, one of ${VITAL_POOR_METRICS.join(', ')}`;
  return undefined;
};

/** Where an alert goes. A webhook's secret is stored and never read back (ruleView). */
export type AlertChannel =
  | { type: 'email'; to: string }
  | { type: 'webhook'; url: string; format: WebhookFormat; secret?: string | undefined };

export interface AlertRule extends RuleParams {
  id: number;
  site_key: string;
  kind: RuleKind;
  channels: AlertChannel[];
  cooldown_minutes: number;
  created_at: number;
}

/** A rule as it is read back: each webhook says whether it has a secret, never the secret. */
export type AlertRuleView = Omit<AlertRule, 'channels'> & {
  channels: Array<{ type: 'email'; to: string } | { type: 'webhook'; url: string; format: WebhookFormat; signed: boolean }>;
};

/**
 * The rule as the API and the CLI show it.
 *
 * @example
 * ruleView(rule).channels; // [{ type: 'webhook', url: 'https://hooks.shop.example/', format: 'json', signed: true }]
 */
export const ruleView = (rule: AlertRule): AlertRuleView => ({
  ...rule,
  channels: rule.channels.map((channel) =>
    channel.type == 'email' ? { type: 'email', to: channel.to } : { type: 'webhook', url: channel.url, format: channel.format, signed: Boolean(channel.secret) },
  ),
});

/** A rule's cooldown when none is given: an hour. */
export const DEFAULT_COOLDOWN_MINUTES = 60;

/**
 * The rules every site has out of the box (docs/alerts.md, "Out of the box"): a new issue and a
 * regression, by email to the site's dashboard users who opted in (`alert_email`, off unless set).
 * Their ids in the outbox are these names.
 */
export const BUILT_IN_RULES = { new_issue: 'default:new_issue', regression: 'default:regression' } as const;

/**
 * What an occurrence's fold (core/issueLifecycle.ts occurIssue) alerts of: `new_issue` for an
 * issue's first report, `regression` for a resolved issue an occurrence made unresolved again,
 * nothing otherwise (an ignored issue coming back is not a regression: its owner chose to wait).
 *
 * @example
 * issueAlertKind(undefined, state); // 'new_issue'
 */
export const issueAlertKind = (before: IssueLifecycleState | undefined, after: IssueLifecycleState): 'new_issue' | 'regression' | undefined => {
  if (!before) return 'new_issue';
  if (before.status == 'resolved' && after.status == 'unresolved' && after.regressed) return 'regression';
  return undefined;
};

/**
 * Whether a rule's cooldown still holds: an alert of the same issue and rule was written after
 * `now - cooldown`.
 *
 * @example
 * inCooldown(lastAlertAt, 60, Date.now()); // true within the hour
 */
export const inCooldown = (lastAlertAt: number | undefined, cooldownMinutes: number, now: number): boolean =>
  lastAlertAt !== undefined && lastAlertAt > now - cooldownMinutes * 60_000;

/**
 * The alert an issue's trigger gives, as the outbox stores it: `url` is left empty, the delivery
 * fills it from `--public-url` (the store does not know it).
 *
 * @example
 * issueAlert({ id, kind: 'new_issue', site: { key: 'shop', name: 'Shop' }, issue: state, occurrences: 1, now });
 */
export const issueAlert = (input: {
  id: string;
  kind: 'new_issue' | 'regression' | 'spike';
  site: { key: string; name: string };
  issue: IssueLifecycleState;
  page_url?: string | undefined;
  environment?: string | undefined;
  /** A spike's occurrences in its window. */
  window?: { count: number; minutes: number } | undefined;
  now: number;
}): Alert => {
  const { issue } = input;
  const name = issue.error_name && !issue.error_message.startsWith(issue.error_name) ? `${issue.error_name}: ` : '';
  return {
    id: input.id,
    kind: input.kind,
    site: input.site,
    issue: {
      fingerprint: issue.fingerprint,
      title: `${name}${issue.error_message}`.slice(0, 500),
      page_url: input.page_url,
      release: issue.last_release ?? undefined,
      environment: input.environment,
      first_seen: new Date(issue.first_seen).toISOString(),
      last_seen: new Date(issue.last_seen).toISOString(),
      ...(input.window ? { window_count: input.window.count, window_minutes: input.window.minutes } : {}),
    },
    url: '',
    created_at: new Date(input.now).toISOString(),
  };
};
