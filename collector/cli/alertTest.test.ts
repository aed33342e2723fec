// `sitebeacon alert test ID --site SITE_KEY` (docs/alerts.md, "Sending a test"): sent from the
// command's process as serve would, with serve's flags or their variables, to a real SMTP server and
// a real webhook receiver on 127.0.0.1; a real SQLite file.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { NO_SMTP } from '../alerts/sendTestAlert';
import { parseMime, startSmtpReceiver } from '../alerts/testing/smtpReceiver';
import { startWebhookReceiver } from '../alerts/testing/webhookReceiver';
import { createSqliteStore } from '../store/sqlite';
import { runCli } from '../testing/runCli';

const SECRET = 'cli-hook-secret';
let dir: string;
let db: string;
let site: string;
let cleanups: Array<() => Promise<void>>;
beforeEach(async () => {
  cleanups = [];
  dir = mkdtempSync(join(tmpdir(), 'sitebeacon-alert-test-'));
  db = join(dir, 'sitebeacon.db');
  site = JSON.parse((await runCli(['site', 'add', '--origin', 'https://shop.example', '--name', 'Shop', '--json', '--db', db])).out).site_key;
});
afterEach(async () => {
  for (const cleanup of cleanups) await cleanup();
  rmSync(dir, { recursive: true, force: true });
});

const addRule = async (...args: string[]) => JSON.parse((await runCli(['alert', 'add', '--site', site, '--json', '--db', db, ...args])).out).id as number;
const deliveries = async () => {
  const store = createSqliteStore({ file: db });
  try {
    return await store.alerts.deliveries(site, { limit: 10 });
  } finally {
    await store.close();
  }
};

test("sends to every channel with serve's settings from the environment, prints each outcome, logs the tries", async () => {
  const smtp = await startSmtpReceiver({ user: 'alerts', pass: 'pw' });
  const hook = await startWebhookReceiver(SECRET);
  cleanups.push(smtp.close, hook.close);
  const id = await addRule('--on', 'regression', '--email', 'owner@shop.example', '--webhook', hook.url, '--secret', SECRET);
  const env = { SITEBEACON_SMTP_URL: smtp.url, SITEBEACON_MAIL_FROM: 'alerts@beacon.shop.example', SITEBEACON_ALLOW_PRIVATE_WEBHOOKS: '1', SITEBEACON_PUBLIC_URL: 'https://beacon.shop.example/' };
  const sent = await runCli(['alert', 'test', String(id), '--site', site, '--db', db], { env });
  expect(sent).toEqual({ code: 0, out: `sent\towner@shop.example\nsent\t${hook.url}`, err: '' });
  expect(parseMime(smtp.received[0]!.raw).headers.get('subject')).toBe(`[sitebeacon] Test: Regression on Shop: sitebeacon test alert of rule ${id}: nothing went wrong`);
  expect(hook.requests[0]).toMatchObject({ verified: true, body: { kind: 'regression', test: true, url: `https://beacon.shop.example/sites/${site}` } });
  expect((await deliveries()).map(({ rule, status, tries }) => [rule, status, tries])).toEqual([[`test:${id}`, 'sent', 1], [`test:${id}`, 'sent', 1]]);
});

test('without a mail server or with a private webhook not allowed: failed, said per channel, exit 1; an unknown rule exit 1; bad flags are usage errors', async () => {
  const hook = await startWebhookReceiver(SECRET);
  cleanups.push(hook.close);
  const id = await addRule('--on', 'new_issue', '--email', 'owner@shop.example', '--webhook', hook.url);
  const failed = await runCli(['alert', 'test', String(id), '--site', site, '--json', '--db', db]);
  expect(failed.code).toBe(1);
  expect(JSON.parse(failed.out)).toEqual({
    rule_id: id,
    deliveries: [
      { alert_id: expect.any(String), channel: { type: 'email', to: 'owner@shop.example' }, status: 'failed', error: NO_SMTP },
      { alert_id: expect.any(String), channel: { type: 'webhook', url: hook.url }, status: 'failed', error: expect.stringContaining('refused target') },
    ],
  });
  expect(hook.requests).toEqual([]);
  expect((await deliveries()).map(({ status }) => status)).toEqual(['failed', 'failed']);
  expect(await runCli(['alert', 'test', '999', '--site', site, '--db', db])).toMatchObject({ code: 1, err: `sitebeacon: site ${site} has no alert rule 999` });
  expect(await runCli(['alert', 'test', String(id), '--site', 'nosuchsite', '--db', db])).toMatchObject({ code: 1 });
  expect(await runCli(['alert', 'test', 'x', '--site', site, '--db', db])).toMatchObject({ code: 2 });
  expect((await runCli(['alert', 'test', String(id), '--site', site, '--smtp-url', 'smtp://127.0.0.1:1', '--db', db])).code).toBe(2);
  expect((await runCli(['alert', 'test', String(id), '--site', site, '--smtp-url', 'http://x', '--mail-from', 'a@b.example', '--db', db])).code).toBe(2);
});
