import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Alert } from '../core/alerts/alert';
import { sendWebhook } from './sendWebhook';

// docs/alerts.md, "Verifying a webhook", shows a receiver in plain Node: it is run here as written,
// so the page cannot drift from what the collector sends.
const page = readFileSync(resolve(dirname(fileURLToPath(import.meta.url)), '../../docs/alerts.md'), 'utf8');
const example = /## Verifying a webhook[\s\S]*?```js\n([\s\S]*?)```/.exec(page)?.[1];

const alert: Alert = {
  id: 'al_docs',
  kind: 'spike',
  site: { key: 'shop', name: 'Shop' },
  issue: { fingerprint: 'ab12', title: 'Error: boom', window_count: 50, window_minutes: 5 },
  url: 'https://beacon.shop.example/sites/shop/errors/ab12',
  created_at: '2026-11-27T19:00:00.000Z',
};

const dir = mkdtempSync(join(tmpdir(), 'alert-docs-'));
let child: ChildProcess;
let url: string;
let output = '';

const freePort = async () => {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as AddressInfo;
  await new Promise((done) => probe.close(done));
  return port;
};

beforeAll(async () => {
  const file = join(dir, 'receiver.mjs');
  writeFileSync(file, example ?? '');
  const port = await freePort();
  url = `http://127.0.0.1:${port}/`;
  child = spawn(process.execPath, [file], { env: { ...process.env, PORT: String(port), SITEBEACON_WEBHOOK_SECRET: 'docs-secret' }, stdio: ['ignore', 'pipe', 'inherit'] });
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  // Ready when a request is answered at all (a 401: no signature), not refused.
  for (let tries = 0; tries < 100; tries++) {
    const outcome = await sendWebhook({ url, format: 'json' }, alert, { allowPrivate: true, timeoutMs: 1000 });
    if (outcome.status != 'retry') break;
    await new Promise((done) => setTimeout(done, 50));
  }
});
afterAll(() => {
  child?.kill();
  rmSync(dir, { recursive: true, force: true });
});

describe("docs/alerts.md's receiver", () => {
  test('the page has the example', () => {
    expect(example).toMatch(/createHmac\('sha256', SECRET\)/);
  });

  test('accepts a request signed with its secret, once per delivery', async () => {
    expect(await sendWebhook({ url, format: 'json', secret: 'docs-secret' }, alert, { allowPrivate: true })).toEqual({ status: 'sent', code: 204 });
    expect(await sendWebhook({ url, format: 'json', secret: 'docs-secret' }, alert, { allowPrivate: true })).toEqual({ status: 'sent', code: 204 });
    await new Promise((done) => setTimeout(done, 100));
    expect(output).toBe('spike Shop https://beacon.shop.example/sites/shop/errors/ab12\n');
  });

  test('refuses another secret, no signature, and a timestamp from long ago', async () => {
    expect(await sendWebhook({ url, format: 'json', secret: 'guess' }, alert, { allowPrivate: true })).toMatchObject({ status: 'fail', code: 401 });
    expect(await sendWebhook({ url, format: 'json' }, alert, { allowPrivate: true })).toMatchObject({ status: 'fail', code: 401 });
    const old = new Date(Date.now() - 3600_000);
    expect(await sendWebhook({ url, format: 'json', secret: 'docs-secret' }, alert, { allowPrivate: true, now: old })).toMatchObject({ status: 'fail', code: 401 });
  });
});
