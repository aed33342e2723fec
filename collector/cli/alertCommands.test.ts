// `sitebeacon alert add|list|remove` (docs/alerts.md, "Rules") against a real SQLite file.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { runCli } from '../testing/runCli';

let dir: string;
let db: string;
let site: string;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sitebeacon-alerts-cli-'));
  db = join(dir, 'sitebeacon.db');
  site = JSON.parse((await runCli(['site', 'add', '--origin', 'https://shop.example', '--json', '--db', db])).out).site_key;
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

test('add stores a rule and prints it without its secret; list shows it; remove removes it', async () => {
  const added = await runCli(['alert', 'add', '--site', site, '--on', 'new_issue', '--email', 'owner@shop.example', '--webhook', 'https://hooks.shop.example/in', '--format', 'slack', '--secret', 'topsecret', '--cooldown', '30', '--json', '--db', db]);
  expect(added.code).toBe(0);
  const rule = JSON.parse(added.out);
  expect(rule).toMatchObject({ site_key: site, kind: 'new_issue', cooldown_minutes: 30, channels: [{ type: 'email', to: 'owner@shop.example' }, { type: 'webhook', url: 'https://hooks.shop.example/in', format: 'slack', signed: true }] });
  expect(added.out).not.toContain('topsecret');
  const listed = await runCli(['alert', 'list', '--site', site, '--db', db]);
  expect(listed.out).toBe(`${rule.id}\tnew_issue\towner@shop.example, https://hooks.shop.example/in (signed)\tcooldown 30 min`);
  expect(listed.out).not.toContain('topsecret');
  expect((await runCli(['alert', 'remove', String(rule.id), '--site', site, '--db', db])).out).toBe(`Removed alert rule ${rule.id} of site ${site}.`);
  const again = await runCli(['alert', 'remove', String(rule.id), '--site', site, '--db', db]);
  expect([again.code, again.err]).toEqual([1, `sitebeacon: site ${site} has no alert rule ${rule.id}`]);
  expect((await runCli(['alert', 'list', '--site', site, '--db', db])).out).toBe('');
});

test("a spike's window and factor or count, a vital's metric, are stored with the rule", async () => {
  const spike = await runCli(['alert', 'add', '--site', site, '--on', 'spike', '--window', '10', '--factor', '2.5', '--email', 'a@b.example', '--json', '--db', db]);
  expect(JSON.parse(spike.out)).toMatchObject({ kind: 'spike', window_minutes: 10, factor: 2.5 });
  const vital = await runCli(['alert', 'add', '--site', site, '--on', 'vital_poor', '--metric', 'INP', '--email', 'a@b.example', '--json', '--db', db]);
  expect(JSON.parse(vital.out)).toMatchObject({ kind: 'vital_poor', metric: 'INP' });
});

test('a rule with nowhere to send, an unknown kind or format, a secret without a webhook, a bad cooldown: usage errors naming them', async () => {
  const add = (...args: string[]) => runCli(['alert', 'add', '--site', site, '--db', db, ...args]);
  for (const [args, said] of [
    [['--on', 'new_issue'], 'give --email TO or --webhook URL'],
    [['--on', 'sometimes', '--email', 'a@b.example'], '--on sometimes is not one of'],
    [['--on', 'regression', '--webhook', 'https://h.example/', '--format', 'xml'], '--format xml is not one of'],
    [['--on', 'regression', '--email', 'a@b.example', '--secret', 's'], '--format and --secret go with --webhook'],
    [['--on', 'regression', '--webhook', 'ftp://h.example/'], 'is not an http(s) URL'],
    [['--on', 'regression', '--email', 'a@b.example', '--cooldown', '1.5'], '--cooldown 1.5 is not a number of minutes'],
    [['--on', 'spike', '--window', '10', '--email', 'a@b.example'], 'a spike rule needs --factor or --count'],
    [['--on', 'spike', '--window', '0', '--count', '5', '--email', 'a@b.example'], 'a spike rule needs --window'],
    [['--on', 'spike', '--window', '10', '--factor', 'x', '--email', 'a@b.example'], 'a spike --factor is a number above 1'],
    [['--on', 'vital_poor', '--metric', 'FID', '--email', 'a@b.example'], 'a vital_poor rule needs --metric, one of LCP'],
    [['--on', 'new_issue', '--count', '5', '--email', 'a@b.example'], 'a new_issue rule takes no --count'],
  ] as const) {
    const { code, err } = await add(...args);
    expect(code).toBe(2);
    expect(err).toContain(said);
  }
  expect((await runCli(['alert', 'list', '--site', site, '--db', db])).out).toBe('');
});

test('user alert-mail turns the built-in alert mail on and off; an unknown user is exit 1', async () => {
  expect((await runCli(['user', 'add', '--email', 'Owner@Shop.example', '--password-stdin', '--db', db], { stdin: async () => 'a long password here' })).code).toBe(0);
  expect(await runCli(['user', 'alert-mail', 'owner@shop.example', 'on', '--json', '--db', db])).toMatchObject({ code: 0, out: '{"email":"owner@shop.example","alert_mail":true}' });
  expect(await runCli(['user', 'alert-mail', 'OWNER@shop.example', 'off', '--db', db])).toMatchObject({ code: 0, out: 'Alert mail off for owner@shop.example.' });
  expect(await runCli(['user', 'alert-mail', 'nobody@shop.example', 'on', '--db', db])).toMatchObject({ code: 1, err: 'sitebeacon: no user has the email nobody@shop.example' });
  expect(await runCli(['user', 'alert-mail', 'owner@shop.example', 'maybe', '--db', db])).toMatchObject({ code: 2 });
});
