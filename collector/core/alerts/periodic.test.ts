import { expect, test } from 'vitest';
import { occurIssue } from '../issueLifecycle';
import { alertHeadline } from './alert';
import { cspAlert, isSpike, spikeAlerts, spikeRanges, turnedPoor, vitalAlert, vitalRanges } from './periodic';
import { raisedEntries } from './raised';
import { ruleParamsProblem, type AlertRule } from './rules';

const T0 = Date.UTC(2026, 4, 8, 12, 3, 20);
const webhook = { type: 'webhook', url: 'https://hooks.shop.example/', format: 'json', secret: 's3cret' } as const;
const rule = (fields: Partial<AlertRule>): AlertRule => ({ id: 7, site_key: 'shop', kind: 'spike', channels: [webhook], cooldown_minutes: 60, created_at: T0, ...fields });
const site = { key: 'shop', name: 'Shop' };
const issue = occurIssue(undefined, { fingerprint: 'f1', error_type: 'javascript_error', error_name: 'TypeError', error_message: 'x is undefined', at: T0 - 86_400_000 }, () => undefined);

test('a spike by count: the window reaching it; by factor: that many times the usual rate, never under 5 occurrences', () => {
  expect([isSpike({ window_minutes: 10, count: 50 }, 49, 0), isSpike({ window_minutes: 10, count: 50 }, 50, 0)]).toEqual([false, true]);
  // A quiet issue: its usual rate counts as one per window, and the floor holds.
  expect([isSpike({ window_minutes: 60, factor: 3 }, 4, 0), isSpike({ window_minutes: 60, factor: 3 }, 5, 0)]).toEqual([false, true]);
  expect(isSpike({ window_minutes: 60, factor: 10 }, 9, 0)).toBe(false);
  // 7 days at 10 an hour: 1,680 occurrences; an hour's usual 10; factor 3 is 30.
  expect([isSpike({ window_minutes: 60, factor: 3 }, 29, 1680), isSpike({ window_minutes: 60, factor: 3 }, 30, 1680)]).toEqual([false, true]);
  expect(isSpike({ window_minutes: 60 }, 1000, 0)).toBe(false);
});

test("a spike rule's ranges: the last window, the seven days before today, a key shared by the window's period", () => {
  const ranges = spikeRanges(10, T0);
  expect(ranges).toEqual({ since: T0 - 600_000, until: T0, fromDay: Math.floor(T0 / 86_400_000) - 7, toDay: Math.floor(T0 / 86_400_000), key: Date.UTC(2026, 4, 8, 12, 0) });
  expect(spikeRanges(10, T0 + 60_000).key).toBe(ranges.key);
  expect(spikeRanges(10, Date.UTC(2026, 4, 8, 12, 10)).key).toBe(Date.UTC(2026, 4, 8, 12, 10));
});

test('spike alerts: one per spiking issue, with its window count; the same key from any collector in the period', () => {
  const spiking = rule({ window_minutes: 10, count: 20 });
  const counts = [{ fingerprint: 'f1', occurrences: 25, baseline: 3 }, { fingerprint: 'f2', occurrences: 5, baseline: 0 }, { fingerprint: 'gone', occurrences: 99, baseline: 0 }];
  const raised = spikeAlerts({ rule: spiking, site, counts, issues: new Map([['f1', issue], ['f2', { ...issue, fingerprint: 'f2' }]]), now: T0 });
  expect(raised).toHaveLength(1);
  expect(raised[0]).toMatchObject({ rule: '7', subject: 'f1', window: Date.UTC(2026, 4, 8, 12, 0), alert: { kind: 'spike', issue: { fingerprint: 'f1', window_count: 25, window_minutes: 10 } } });
  const [entry] = raisedEntries(raised[0]!);
  expect(entry).toMatchObject({ fingerprint: 'f1', payload: { id: entry!.id, kind: 'spike' } });
  expect(alertHeadline(entry!.payload)).toBe('Spike on Shop: TypeError: x is undefined (25 in 10 min)');
  const again = spikeAlerts({ rule: spiking, site, counts, issues: new Map([['f1', issue]]), now: T0 + 120_000 });
  expect(raisedEntries(again[0]!)[0]!.id).toBe(entry!.id);
  const later = spikeAlerts({ rule: spiking, site, counts, issues: new Map([['f1', issue]]), now: T0 + 600_000 });
  expect(raisedEntries(later[0]!)[0]!.id).not.toBe(entry!.id);
  expect(raisedEntries({ ...raised[0]!, channels: [webhook, { type: 'email', to: 'a@shop.example' }] }).map(({ id }) => id)).toHaveLength(2);
});

test('a vital turned poor: poor over the last 24 hours with 20 samples, not poor over the 24 hours an hour earlier', () => {
  expect(turnedPoor('LCP', { samples: 40, p75: 4100 }, { samples: 40, p75: 3900 })).toBe(true);
  expect(turnedPoor('LCP', { samples: 40, p75: 4100 }, { samples: 40, p75: 4200 })).toBe(false);
  expect(turnedPoor('LCP', { samples: 19, p75: 9000 }, { samples: 0, p75: undefined })).toBe(false);
  expect(turnedPoor('LCP', { samples: 20, p75: 9000 }, { samples: 0, p75: undefined })).toBe(true);
  // Poor before on too few samples was no poor p75.
  expect(turnedPoor('CLS', { samples: 30, p75: 0.3 }, { samples: 3, p75: 0.5 })).toBe(true);
  expect(turnedPoor('CLS', { samples: 30, p75: 0.2 }, { samples: 30, p75: 0.1 })).toBe(false);
  const { hour, current, previous } = vitalRanges(T0);
  expect([hour, current[1] - current[0], previous[0]]).toEqual([Date.UTC(2026, 4, 8, 12), 86_400_000, Date.UTC(2026, 4, 7, 11)]);
  const raised = vitalAlert({ rule: rule({ kind: 'vital_poor', metric: 'LCP' }), site, current: { samples: 40, p75: 4100 }, previous: { samples: 40, p75: 2000 }, now: T0 });
  expect(raised).toMatchObject({ subject: 'vital:LCP', window: hour, alert: { kind: 'vital_poor', vital: { metric: 'LCP', p75: 4100 } } });
  expect(alertHeadline({ ...raised!.alert, id: 'x' })).toBe('Poor LCP on Shop: p75 4100 ms');
});

test('a new enforced CSP block: once per rule and directive and host, whatever the time', () => {
  const block = { directive: 'script-src', blocked_host: 'cdn.evil.example', page_url: 'https://shop.example/' };
  const first = cspAlert({ rule: rule({ kind: 'csp_enforced_new' }), site, block, now: T0 });
  expect(first).toMatchObject({ subject: 'csp:script-src cdn.evil.example', window: 0, alert: { kind: 'csp_enforced_new', csp: block } });
  const later = cspAlert({ rule: rule({ kind: 'csp_enforced_new' }), site, block, now: T0 + 86_400_000 });
  expect(raisedEntries(later)[0]!.id).toBe(raisedEntries(first)[0]!.id);
  expect(raisedEntries(cspAlert({ rule: rule({ kind: 'csp_enforced_new', id: 8 }), site, block, now: T0 }))[0]!.id).not.toBe(raisedEntries(first)[0]!.id);
});

test("a rule's parameters fit its kind", () => {
  expect(ruleParamsProblem('spike', { window_minutes: 10, factor: 3 })).toBeUndefined();
  expect(ruleParamsProblem('spike', { window_minutes: 10, count: 100 })).toBeUndefined();
  expect(ruleParamsProblem('spike', { window_minutes: 10 })).toMatch(/factor or count/);
  expect(ruleParamsProblem('spike', { window_minutes: 10, factor: 3, count: 5 })).toMatch(/factor or count/);
  expect(ruleParamsProblem('spike', { window_minutes: 0, count: 5 })).toMatch(/window_minutes/);
  expect(ruleParamsProblem('spike', { window_minutes: 1441, count: 5 })).toMatch(/window_minutes/);
  expect(ruleParamsProblem('spike', { window_minutes: 10, factor: 1 })).toMatch(/above 1/);
  expect(ruleParamsProblem('spike', { window_minutes: 10, count: 0.5 })).toMatch(/whole number/);
  expect(ruleParamsProblem('vital_poor', { metric: 'LCP' })).toBeUndefined();
  expect(ruleParamsProblem('vital_poor', { metric: 'FID' })).toMatch(/metric/);
  expect(ruleParamsProblem('new_issue', { metric: 'LCP' })).toMatch(/takes no metric/);
  expect(ruleParamsProblem('csp_enforced_new', {})).toBeUndefined();
});
