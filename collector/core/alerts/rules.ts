import type { IssueLifecycleState } from '../issueLifecycle';
import type { Alert } from './alert';
import type { WebhookFormat } from './webhookBody';

/**
 * Alert rules (docs/alerts.md, "Rules"): what a site is alerted of, on which channels, at most once
 * per issue and rule per cooldown. Every kind may be stored; `new_issue` and `regression` are the
 * ones evaluated, at ingest, in the transaction that stores the report (the outbox).
 */
export type RuleKind = 'new_issue' | 'regression' | 'spike' | 'csp_enforced_new' | 'vital_poor';

export const RULE_KINDS: readonly RuleKind[] = ['new_issue', 'regression', 'spike', 'csp_enforced_new', 'vital_poor'];

/** The kinds evaluated at ingest; the others are stored and not evaluated yet (docs/alerts.md). */
export const EVALUATED_KINDS: readonly RuleKind[] = ['new_issue', 'regression'];

/** Where an alert goes. A webhook's secret is stored and never read back (ruleView). */
export type AlertChannel =
  | { type: 'email'; to: string }
  | { type: 'webhook'; url: string; format: WebhookFormat; secret?: string | undefined };

export interface AlertRule {
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
  kind: 'new_issue' | 'regression';
  site: { key: string; name: string };
  issue: IssueLifecycleState;
  page_url?: string | undefined;
  environment?: string | undefined;
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
    },
    url: '',
    created_at: new Date(input.now).toISOString(),
  };
};
