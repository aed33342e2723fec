import { apiPath } from '../collector/routes/apiPath';
import type { AlertRule, AlertRuleInput, AlertTest } from '../collector/routes/apiTypes';
import { send } from './fetchJson';

/** A site's rules path (`/api/v1/sites/{site_key}/alerts`), and one rule's under it. */
const rulesPath = (siteKey: string) => apiPath('/api/v1/sites/:site_key/alerts', { site_key: siteKey });
const rulePath = (siteKey: string, id: number) => `${rulesPath(siteKey)}/${encodeURIComponent(String(id))}`;

/**
 * The alerts API's writes (docs/alerts.md, "The API"), sent with the session cookie: the browser adds
 * this page's Origin, which the collector checks (docs/access.md). Each rejects with an ApiFailure.
 *
 * @example
 * const rule = await addAlertRule('3f2a', { kind: 'new_issue', channels: [{ type: 'email', to: 'owner@shop.example' }] });
 */
export const addAlertRule = async (siteKey: string, rule: AlertRuleInput): Promise<AlertRule> =>
  (await (await send('POST', rulesPath(siteKey), rule)).json()) as AlertRule;

/** Removes a rule (204). */
export const removeAlertRule = async (siteKey: string, id: number): Promise<void> => void (await send('DELETE', rulePath(siteKey, id)));

/** Sends a rule's test now and resolves to what came of each channel. */
export const testAlertRule = async (siteKey: string, id: number): Promise<AlertTest> =>
  (await (await send('POST', `${rulePath(siteKey, id)}/test`)).json()) as AlertTest;

/** What a rule kind is called on the page. */
export const KIND_LABELS: Record<AlertRule['kind'], string> = {
  new_issue: 'New issue',
  regression: 'Regression',
  spike: 'Spike',
  csp_enforced_new: 'New enforced CSP block',
  vital_poor: 'Poor Web Vital',
};

/**
 * A rule's kind with its parameters, in words.
 *
 * @example
 * ruleLabel({ kind: 'spike', window_minutes: 10, count: 50 }); // 'Spike: 50 in 10 min'
 */
export const ruleLabel = (rule: Pick<AlertRule, 'kind' | 'window_minutes' | 'count' | 'factor' | 'metric'>) => {
  if (rule.kind == 'spike') return `Spike: ${rule.count !== undefined ? rule.count : `${rule.factor}× the usual rate`} in ${rule.window_minutes} min`;
  if (rule.kind == 'vital_poor') return `Poor ${rule.metric ?? 'Web Vital'}`;
  return KIND_LABELS[rule.kind];
};
