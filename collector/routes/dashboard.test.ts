import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { createTestCollector } from '../testing/testCollector';

let collector: ReturnType<typeof createTestCollector>;
beforeEach(() => (collector = createTestCollector()));
afterEach(() => collector.close());

const shell = () => readFileSync(new URL('../../dist/dashboard/index.html', import.meta.url), 'utf8');

test('every dashboard page is the built shell with a strict CSP that reports to this collector, and is never cached', async () => {
  const site = await collector.addSite(['https://shop.example']);
  for (const path of ['/', '/docs']) {
    const response = await collector.request(path);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(shell());
    expect(response.headers.get('cache-control')).toBe('no-store');
    const policy = response.headers.get('content-security-policy')!;
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("script-src 'self';");
    expect(policy).toContain("style-src 'self';");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toMatch(/unsafe-inline|unsafe-eval|https?:\/\/(?!127\.0\.0\.1:8787)/);
    expect(policy).toContain('report-uri http://127.0.0.1:8787/api/csp-reports/dashboard');
    expect(response.headers.get('reporting-endpoints')).toBe('sitebeacon-dashboard="http://127.0.0.1:8787/api/csp-reports/dashboard"');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  }
  // The shell has no inline script or style: only files of its own.
  expect(shell()).not.toMatch(/<script(?![^>]*\ssrc=)|<style|\sstyle=|\son\w+=/);
  // A site page answers with the status its data will meet.
  expect((await collector.request(`/sites/${site}`)).status).toBe(401);
  await collector.addUser('ann@shop.example', 'ann-password-1', ['other']);
  await collector.addUser('root@shop.example', 'root-password-1');
  const ann = await collector.signIn('ann@shop.example', 'ann-password-1');
  const root = await collector.signIn('root@shop.example', 'root-password-1');
  expect((await collector.request(`/sites/${site}/setup`, { headers: { cookie: ann } })).status).toBe(403);
  expect((await collector.request(`/sites/${site}/errors/0123456789abcdef`, { headers: { cookie: root } })).status).toBe(200);
  expect((await collector.request('/sites/nope', { headers: { cookie: root } })).status).toBe(404);
}, 30_000);

test('hashed assets are served immutable for a year with their type and the CSP; other names are 404', async () => {
  const [, script] = /src="\/dashboard\/(assets\/[^"]+\.js)"/.exec(shell())!;
  const [, styles] = /href="\/dashboard\/(assets\/[^"]+\.css)"/.exec(shell())!;
  const js = await collector.request(`/dashboard/${script}`);
  expect(js.status).toBe(200);
  expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  expect(js.headers.get('content-security-policy')).toContain("default-src 'none'");
  expect((await collector.request(`/dashboard/${styles}`)).headers.get('content-type')).toBe('text/css; charset=utf-8');
  for (const name of ['..%2Findex.html', 'nope.js', 'x.html', '%2e%2e%2f%2e%2e%2fpackage.json']) {
    expect((await collector.request(`/dashboard/assets/${name}`)).status).toBe(404);
  }
});
