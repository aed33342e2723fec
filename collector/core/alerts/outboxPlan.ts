import type { IssueLifecycleState } from '../issueLifecycle';
import type { Alert } from './alert';
import { BUILT_IN_RULES, DEFAULT_COOLDOWN_MINUTES, inCooldown, issueAlert, type AlertChannel, type AlertRule } from './rules';

/** An issue's fold that alerts (rules.ts issueAlertKind), as a store's ingest transaction collects them. */
export interface IssueTrigger {
  siteKey: string;
  kind: 'new_issue' | 'regression';
  state: IssueLifecycleState;
}

/** One delivery to write in the outbox (docs/alerts.md, "The outbox"): one alert to one channel. */
export interface OutboxEntry {
  /** The idempotency key (`Sitebeacon-Delivery`), the alert's id as well. */
  id: string;
  site_key: string;
  /** The rule's id, or a built-in rule's name (rules.ts BUILT_IN_RULES). */
  rule: string;
  fingerprint: string;
  channel: AlertChannel;
  payload: Alert;
  created_at: number;
}

/** What the ingest transaction read for its triggers' sites, before planning. */
export interface OutboxContext {
  /** Each site's stored rules (any kind: only the trigger's kind is used). */
  rules: ReadonlyMap<string, readonly AlertRule[]>;
  /** Each site's dashboard users who opted in to alert mail. */
  optedIn: ReadonlyMap<string, readonly string[]>;
  names: ReadonlyMap<string, string>;
  /** The last alert written per `site\nrule\nfingerprint` (ms), for cooldowns. */
  lastAlertAt: Map<string, number>;
}

export const cooldownKey = (siteKey: string, rule: string, fingerprint: string) => `${siteKey}\n${rule}\n${fingerprint}`;

/**
 * The outbox rows a transaction's triggers give: for each trigger, each rule of its kind (the
 * built-in one by email to the users who opted in, then the site's own) not in cooldown for this
 * issue, one row per channel. A rule that alerts updates `lastAlertAt`, so a second trigger of the
 * same issue in one transaction stays quiet too.
 *
 * @example
 * planOutbox(triggers, context, Date.now(), () => randomUUID());
 */
export const planOutbox = (triggers: readonly IssueTrigger[], context: OutboxContext, now: number, newId: () => string): OutboxEntry[] => {
  const entries: OutboxEntry[] = [];
  for (const { siteKey, kind, state } of triggers) {
    const emails = context.optedIn.get(siteKey) ?? [];
    const rules: Array<{ rule: string; channels: AlertChannel[]; cooldown: number }> = [];
    if (emails.length) rules.push({ rule: BUILT_IN_RULES[kind], channels: emails.map((to) => ({ type: 'email', to })), cooldown: DEFAULT_COOLDOWN_MINUTES });
    for (const rule of context.rules.get(siteKey) ?? []) {
      if (rule.kind == kind) rules.push({ rule: String(rule.id), channels: rule.channels, cooldown: rule.cooldown_minutes });
    }
    for (const { rule, channels, cooldown } of rules) {
      const key = cooldownKey(siteKey, rule, state.fingerprint);
      if (inCooldown(context.lastAlertAt.get(key), cooldown, now)) continue;
      context.lastAlertAt.set(key, now);
      for (const channel of channels) {
        const id = newId();
        const site = { key: siteKey, name: context.names.get(siteKey) ?? siteKey };
        entries.push({ id, site_key: siteKey, rule, fingerprint: state.fingerprint, channel, payload: issueAlert({ id, kind, site, issue: state, now }), created_at: now });
      }
    }
  }
  return entries;
};

/**
 * Whether a user's sites (`site_keys`: null for every site, else a JSON array) include `siteKey`.
 *
 * @example
 * seesSite(null, 'shop'); // true
 */
export const seesSite = (siteKeys: string | null, siteKey: string): boolean => {
  if (siteKeys === null) return true;
  try {
    const keys: unknown = JSON.parse(siteKeys);
    return Array.isArray(keys) && keys.includes(siteKey);
  } catch {
    return false;
  }
};
