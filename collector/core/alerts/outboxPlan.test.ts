import { expect, test } from 'vitest';
import { occurIssue, type IssueLifecycleState } from '../issueLifecycle';
import { cooldownKey, planOutbox, seesSite, type OutboxContext } from './outboxPlan';
import { issueAlertKind, ruleView, type AlertRule } from './rules';

const T0 = Date.UTC(2026, 4, 1, 12);
const order = () => undefined;
const first = occurIssue(undefined, { fingerprint: 'f1', error_type: 'javascript_error', error_name: 'TypeError', error_message: 'x is undefined', at: T0 }, order);
const webhook = { type: 'webhook', url: 'https://hooks.shop.example/', format: 'json', secret: 's3cret' } as const;
const rule = (fields: Partial<AlertRule>): AlertRule => ({ id: 7, site_key: 'shop', kind: 'new_issue', channels: [webhook], cooldown_minutes: 60, created_at: T0, ...fields });
const context = (fields: Partial<OutboxContext> = {}): OutboxContext => ({
  rules: new Map([['shop', [rule({})]]]), optedIn: new Map(), names: new Map([['shop', 'Shop']]), lastAlertAt: new Map(), ...fields,
});
let ids = 0;
const newId = () => `id-${++ids}`;

test('a first fold is a new issue; a resolved one made unresolved a regression; an ignored one coming back and a repeat nothing', () => {
  expect(issueAlertKind(undefined, first)).toBe('new_issue');
  expect(issueAlertKind(first, { ...first, last_seen: T0 + 1 })).toBeUndefined();
  const resolved: IssueLifecycleState = { ...first, status: 'resolved' };
  expect(issueAlertKind(resolved, occurIssue(resolved, { ...first, at: T0 + 1 }, order))).toBe('regression');
  const ignored: IssueLifecycleState = { ...first, status: 'ignored', ignore_until_count: 1 };
  expect(issueAlertKind(ignored, occurIssue(ignored, { ...first, at: T0 + 1 }, order))).toBeUndefined();
});

test('one row per channel of each rule of the kind, built-in mail to the opted-in first; the alert is the issue with the row id', () => {
  const entries = planOutbox([{ siteKey: 'shop', kind: 'new_issue', state: first }], context({ optedIn: new Map([['shop', ['a@shop.example']]]) }), T0, newId);
  expect(entries.map(({ rule, channel }) => [rule, channel.type])).toEqual([['default:new_issue', 'email'], ['7', 'webhook']]);
  expect(entries[1]!.payload).toMatchObject({ id: entries[1]!.id, kind: 'new_issue', site: { key: 'shop', name: 'Shop' }, issue: { fingerprint: 'f1', title: 'TypeError: x is undefined' } });
  expect(planOutbox([{ siteKey: 'shop', kind: 'regression', state: first }], context(), T0, newId)).toEqual([]);
});

test("a rule's cooldown holds for its issue only, and a second trigger in one transaction stays quiet", () => {
  const lastAlertAt = new Map([[cooldownKey('shop', '7', 'f1'), T0 - 59 * 60_000]]);
  expect(planOutbox([{ siteKey: 'shop', kind: 'new_issue', state: first }], context({ lastAlertAt }), T0, newId)).toEqual([]);
  expect(planOutbox([{ siteKey: 'shop', kind: 'new_issue', state: { ...first, fingerprint: 'f2' } }], context({ lastAlertAt }), T0, newId)).toHaveLength(1);
  const twice = [{ siteKey: 'shop', kind: 'new_issue', state: first }, { siteKey: 'shop', kind: 'new_issue', state: first }] as const;
  expect(planOutbox(twice, context(), T0 + 61 * 60_000, newId)).toHaveLength(1);
});

test("a rule read back never shows a webhook's secret; users' sites decide who is mailed", () => {
  expect(JSON.stringify(ruleView(rule({})))).not.toContain('s3cret');
  expect(ruleView(rule({})).channels).toEqual([{ type: 'webhook', url: webhook.url, format: 'json', signed: true }]);
  expect([seesSite(null, 'shop'), seesSite('["shop"]', 'shop'), seesSite('["blog"]', 'shop'), seesSite('not json', 'shop')]).toEqual([true, true, false, false]);
});
