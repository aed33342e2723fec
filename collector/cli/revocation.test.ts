// Revocation as operators use it (docs/hostile-input.md, "Revocation"): a `sitebeacon` command run beside a running
// `sitebeacon serve` on the same database takes effect on the collector's very next request.
// Needs `npm run build`.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { EARLY_STUB } from '../../beacon/lib/earlyStub';
import { earlyStubSource } from '../core/setupUrls';
import { CLI, spawnCollector, type CollectorProcess } from '../testing/spawnCollector';

// Real processes on a machine shared with other work: generous time.
vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 });

let dir: string;
let db: string;
let collector: CollectorProcess;
let siteKey: string;
let siteApiKey: string;
let installationKey: string;

/** Runs one command against the database: its exit code and output. */
const sitebeacon = (...args: string[]) => {
  const run = spawnSync(process.execPath, [CLI, ...args, '--db', db], { encoding: 'utf8' });
  return { code: run.status, out: run.stdout, err: run.stderr };
};
const json = (...args: string[]) => {
  const run = sitebeacon(...args, '--json');
  expect(run.code, run.err).toBe(0);
  return JSON.parse(run.out) as Record<string, any>;
};
const call = (method: string, path: string, key?: string, body?: unknown) =>
  fetch(collector.url + path, {
    method,
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
const report = (key: string) => call('POST', `/api/error-reports/${key}`, undefined, { error_type: 'js', error_message: 'm' });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sitebeacon-revoke-'));
  db = join(dir, 'sitebeacon.db');
  siteKey = json('site', 'add', '--origin', 'https://shop.example', '--name', 'Shop').site_key;
  siteApiKey = json('key', 'create', '--site', siteKey).api_key;
  installationKey = json('key', 'create').api_key;
  collector = await spawnCollector({ db, args: ['--rate-limit', '0', '--site-rate-limit', '0', '--log-level', 'silent'] });
});
afterAll(async () => {
  await collector?.stop('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

test('--help lists every revocation command', () => {
  const { out } = sitebeacon('--help');
  for (const command of ['key revoke KEY', 'site rotate-key --site SITE_KEY', 'agent revoke AGENT_ID', 'wordpress revoke --site SITE_KEY']) {
    expect(out).toContain(command);
  }
});

test('key revoke KEY: the key is refused from the next request on', async () => {
  const key = json('key', 'create', '--name', 'leaked').api_key;
  expect((await call('POST', '/api/v1/verify-api-key', key)).status).toBe(200);
  expect(json('key', 'revoke', key)).toEqual({ revoked: true, name: 'leaked' });
  const refused = await call('POST', '/api/v1/verify-api-key', key);
  expect(refused.status).toBe(401);
  expect((await call('GET', `/api/v1/sites/${siteKey}/summary`, key)).status).toBe(401);
  // Another key is untouched; a key revoked twice, or never created, is an error (exit 1).
  expect((await call('POST', '/api/v1/verify-api-key', installationKey)).status).toBe(200);
  expect(sitebeacon('key', 'revoke', key).code).toBe(1);
  expect(sitebeacon('key', 'revoke').code).toBe(2);
});

test('agent revoke AGENT_ID: the agent token is refused from the next request on', async () => {
  const registered = await call('POST', '/api/v1/server-agents/register', installationKey, { hostname: 'web-1', os: 'linux', arch: 'amd64', agent_version: '1.0.0' });
  const agent = (await registered.json()) as { agent_id: string; agent_token: string };
  const config = () => call('GET', `/api/v1/server-agents/${agent.agent_id}/config`, agent.agent_token);
  expect((await config()).status).toBe(200);
  expect(json('agent', 'revoke', agent.agent_id)).toEqual({ revoked: true, agent_id: agent.agent_id });
  expect((await config()).status).toBe(401);
  expect(sitebeacon('agent', 'revoke', agent.agent_id).code).toBe(1);
});

test("wordpress revoke --site: the site's installation is gone from the next request on", async () => {
  const registered = await call('POST', '/api/v1/wordpress/register', siteApiKey, { site_url: 'https://shop.example/' });
  expect(registered.status).toBe(201);
  expect((await call('POST', '/api/v1/wordpress/check-in', siteApiKey, {})).status).toBe(200);
  const { out, code } = sitebeacon('wordpress', 'revoke', '--site', siteKey);
  expect(code).toBe(0);
  expect(out).toContain('key revoke');
  const checkIn = await call('POST', '/api/v1/wordpress/check-in', siteApiKey, {});
  expect(checkIn.status).toBe(404);
  expect(sitebeacon('wordpress', 'revoke', '--site', siteKey).code).toBe(1);
});

test('site rotate-key --site: a new key with the site\'s data; the old key is refused from the next request on', async () => {
  expect((await report(siteKey)).status).toBe(202);
  const rotated = json('site', 'rotate-key', '--site', siteKey);
  expect(rotated).toMatchObject({ previous_site_key: siteKey, name: 'Shop', site_key: expect.stringMatching(/^[0-9a-f]{24}$/) });
  // The new snippet, the early-capture stub first, and the sources its pages need.
  expect(rotated.snippet).toBe(`<script>${EARLY_STUB}</script>\n${rotated.snippet_without_stub}`);
  expect(rotated.snippet_without_stub).toContain(`data-site-key="${rotated.site_key}"`);
  expect(rotated.csp_sources['script-src']).toContain(earlyStubSource());
  const refused = await report(siteKey);
  expect(refused.status).toBe(404);
  expect(await refused.json()).toMatchObject({ error: { code: 'unknown_site' } });
  expect((await report(rotated.site_key)).status).toBe(202);
  // The site's API key follows the site, and what was stored under the old key is there.
  const stored = await call('GET', `/api/v1/sites/${rotated.site_key}/error-reports`, siteApiKey);
  expect(((await stored.json()) as { data: unknown[] }).data).toHaveLength(2);
  expect((await call('GET', `/api/v1/sites/${siteKey}/error-reports`, siteApiKey)).status).toBe(403);
  siteKey = rotated.site_key;
  // The default site's key is fixed (the unkeyed endpoints store under it); an unknown site is an error.
  expect(sitebeacon('site', 'rotate-key', '--site', 'default').code).toBe(1);
  expect(sitebeacon('site', 'rotate-key', '--site', 'nope').code).toBe(1);
  expect(sitebeacon('site', 'rotate-key').code).toBe(2);
});
