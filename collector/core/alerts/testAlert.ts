import type { Alert } from './alert';
import type { AlertRule } from './rules';

/** The outbox's `rule` of a test's delivery: `test:` and the rule's id, so a test is never a rule's cooldown nor a real alert. */
export const testRuleOf = (ruleId: number) => `test:${ruleId}`;

/** The rule id a delivery's `rule` names, and whether it was a test (`test:3`), for the deliveries list. */
export const deliveryRule = (rule: string): { rule: string; test: boolean } =>
  rule.startsWith('test:') ? { rule: rule.slice(5), test: true } : { rule, test: false };

/**
 * The alert a rule's "Send a test" sends (docs/alerts.md, "Sending a test"): of the rule's kind, so
 * a receiver sees the shape it will get, with sample facts that say they are a test, and `test`
 * set (the headline starts `Test: `, the json body has `test: true`). `url` is the site's page.
 *
 * @example
 * testAlert(rule, { key: 'shop', name: 'Shop' }, { id: randomUUID(), url: 'https://beacon.shop.example/sites/shop', now: Date.now() });
 * // headline: 'Test: New issue on Shop: sitebeacon test alert of rule 3: nothing went wrong'
 */
export const testAlert = (rule: Pick<AlertRule, 'id' | 'kind'>, site: { key: string; name: string }, options: { id: string; url: string; now: number }): Alert => {
  const createdAt = new Date(options.now).toISOString();
  const alert: Alert = { id: options.id, kind: rule.kind, site, url: options.url, created_at: createdAt, test: true };
  const title = `sitebeacon test alert of rule ${rule.id}: nothing went wrong`;
  switch (rule.kind) {
    case 'csp_enforced_new':
      return { ...alert, csp: { directive: 'script-src', blocked_host: 'test.sitebeacon.invalid' } };
    case 'vital_poor':
      return { ...alert, vital: { metric: 'LCP', p75: 4000 } };
    default:
      return {
        ...alert,
        issue: {
          fingerprint: '0000000000000000',
          title,
          occurrences: 1,
          first_seen: createdAt,
          last_seen: createdAt,
          ...(rule.kind == 'spike' ? { window_count: 1, window_minutes: 10 } : {}),
        },
      };
  }
};
