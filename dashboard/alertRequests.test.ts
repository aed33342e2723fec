import { expect, test } from 'vitest';
import { ruleLabel } from './alertRequests';
import { route } from './route';

test("a rule's kind and parameters in words", () => {
  expect(ruleLabel({ kind: 'new_issue' })).toBe('New issue');
  expect(ruleLabel({ kind: 'spike', window_minutes: 10, count: 50 })).toBe('Spike: 50 in 10 min');
  expect(ruleLabel({ kind: 'spike', window_minutes: 60, factor: 3 })).toBe('Spike: 3× the usual rate in 60 min');
  expect(ruleLabel({ kind: 'vital_poor', metric: 'LCP' })).toBe('Poor LCP');
  expect(ruleLabel({ kind: 'csp_enforced_new' })).toBe('New enforced CSP block');
});

test("a site's alerts page has its path; a key with a slash stays one segment", () => {
  expect(route('/sites/3f2a/alerts')).toEqual({ page: 'alerts', siteKey: '3f2a' });
  expect(route('/sites/a%2Fb/alerts')).toEqual({ page: 'alerts', siteKey: 'a/b' });
  expect(route('/sites/3f2a/alerts/x')).toEqual({ page: 'overview' });
});
