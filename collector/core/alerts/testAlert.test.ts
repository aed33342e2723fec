import { expect, test } from 'vitest';
import { alertHeadline } from './alert';
import { deliveryRule, testAlert, testRuleOf } from './testAlert';
import { jsonBody } from './webhookBody';

const site = { key: 'shop', name: 'Shop' };
const options = { id: 'a1', url: 'https://beacon.shop.example/sites/shop', now: Date.UTC(2026, 4, 1) };

test("a test alert is of the rule's kind, says it is a test in its headline and its json body, with sample facts", () => {
  const issue = testAlert({ id: 3, kind: 'new_issue' }, site, options);
  expect(alertHeadline(issue)).toBe('Test: New issue on Shop: sitebeacon test alert of rule 3: nothing went wrong');
  expect(JSON.parse(jsonBody(issue))).toMatchObject({ id: 'a1', kind: 'new_issue', test: true, url: options.url, created_at: '2026-05-01T00:00:00.000Z' });
  expect(alertHeadline(testAlert({ id: 4, kind: 'spike' }, site, options))).toBe('Test: Spike on Shop: sitebeacon test alert of rule 4: nothing went wrong (1 in 10 min)');
  expect(alertHeadline(testAlert({ id: 5, kind: 'csp_enforced_new' }, site, options))).toBe('Test: New CSP block on Shop: script-src blocked test.sitebeacon.invalid');
  expect(alertHeadline(testAlert({ id: 6, kind: 'vital_poor' }, site, options))).toBe('Test: Poor LCP on Shop: p75 4000 ms');
  // A real alert's body has no `test` at all.
  expect(JSON.parse(jsonBody({ ...issue, test: undefined }))).not.toHaveProperty('test');
});

test("a test's delivery names its rule apart from the rule's own alerts", () => {
  expect(testRuleOf(3)).toBe('test:3');
  expect(deliveryRule('test:3')).toEqual({ rule: '3', test: true });
  expect(deliveryRule('default:new_issue')).toEqual({ rule: 'default:new_issue', test: false });
});
