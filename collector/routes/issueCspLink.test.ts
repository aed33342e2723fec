import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { fingerprintOf } from '../core/fingerprint';
import { createTestCollector } from '../testing/testCollector';

const PAGE = 'https://127.0.0.1:18142';
/** Firefox ESR 153's page with its beacon (collector/fixtures/README.md): a blocked script and image, each a failed load and a violation. */
const CAPTURE = fileURLToPath(new URL('../fixtures/firefox-esr-153/beacon.json', import.meta.url));
const SCRIPT = { error_type: 'resource_error', error_message: 'script failed to load', source_url: 'https://ads.example.org/a.js' };
const IMAGE = { error_type: 'resource_error', error_message: 'img failed to load', source_url: 'https://cdn.example.net/x.png' };

let collector: ReturnType<typeof createTestCollector>;
let site: string;
let key: string;

/** The capture's requests to the collector, as the browser sent them: its own reports (report-uri) and the beacon's. */
const replay = async () => {
  const captured = JSON.parse(readFileSync(CAPTURE, 'utf8')) as Array<{ method: string; path: string; headers: Record<string, string>; body: string }>;
  for (const request of captured.filter((each) => each.method == 'POST' && each.path != '/api/performance-sessions/SITE_KEY')) {
    const path = request.path.replaceAll('SITE_KEY', site).replace(/^\/legacy$/, `/api/csp-reports/${site}`);
    const headers = Object.fromEntries(['content-type', 'origin', 'user-agent'].flatMap((name) => (request.headers[name] ? [[name, request.headers[name]!]] : [])));
    const response = await collector.request(path, { method: 'POST', headers, body: request.body.replaceAll('SITE_KEY', site) });
    expect(response.status, `${path}: ${await response.clone().text()}`).toBeLessThan(300);
  }
};
const read = async (path: string) => {
  const response = await collector.request(`/api/v1/sites/${site}/issues${path}`, { headers: { authorization: `Bearer ${key}` } });
  expect(response.status, await response.clone().text()).toBe(200);
  return response.json();
};

beforeEach(async () => {
  collector = createTestCollector();
  site = await collector.addSite([PAGE], 'Shop');
  key = await collector.apiKey(site);
});
afterEach(async () => {
  expect(collector.errors).toEqual([]);
  await collector.close();
});

test('a failed load that a CSP violation explains carries it (docs/issues.md, "A resource a CSP blocked"), from a real capture; an error of no blocked URL none', async () => {
  await replay();
  const { items } = (await read('?type=resource_error')) as { items: Array<{ fingerprint: string; csp_violation: unknown }> };
  const byFingerprint = new Map(items.map((item) => [item.fingerprint, item.csp_violation]));
  expect(byFingerprint.get(fingerprintOf(SCRIPT))).toMatchObject({ directive: 'script-src-elem', blocked_url: 'https://ads.example.org/a.js' });
  expect(byFingerprint.get(fingerprintOf(IMAGE))).toMatchObject({ directive: 'img-src', blocked_url: 'https://cdn.example.net/x.png' });
  expect(await read(`/${fingerprintOf(SCRIPT)}`)).toMatchObject({ csp_violation: { directive: 'script-src-elem' } });
  const others = (await read('?type=javascript_error')) as { items: Array<{ csp_violation: unknown }> };
  expect(others.items.length).toBeGreaterThan(0);
  expect(others.items.every((item) => item.csp_violation === null)).toBe(true);
});

test('a failed load on a page no violation names is not linked', async () => {
  await replay();
  const elsewhere = { ...SCRIPT, page_url: `${PAGE}/other` };
  const response = await collector.post(`/api/error-reports/${site}`, [{ ...elsewhere, source_url: 'https://ads.example.org/b.js' }], { origin: PAGE, 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:153.0) Gecko/20100101 Firefox/153.0' });
  expect(response.status).toBe(202);
  const { items } = (await read('?type=resource_error')) as { items: Array<{ title: string; csp_violation: unknown }> };
  expect(items.find((item) => item.title.includes('b.js'))!.csp_violation).toBeNull();
});
