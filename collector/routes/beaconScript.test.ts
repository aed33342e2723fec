import { readFileSync } from 'node:fs';
import { afterEach, expect, test } from 'vitest';
import { EARLY_STUB } from '../../beacon/lib/earlyStub';
import { createTestCollector } from '../testing/testCollector';

let collector: ReturnType<typeof createTestCollector>;
afterEach(() => collector.close());

test('GET /beacon.js serves the built IIFE as JavaScript, cacheable and loadable from any origin', async () => {
  collector = createTestCollector();
  const response = await collector.request('/beacon.js');
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  expect(response.headers.get('cache-control')).toMatch(/max-age=\d+/);
  expect(response.headers.get('access-control-allow-origin')).toBe('*');
  expect(response.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
  expect(await response.text()).toBe(readFileSync(new URL('../../dist/beacon.min.js', import.meta.url), 'utf8'));

  const revalidated = await collector.request('/beacon.js', { headers: { 'if-none-match': response.headers.get('etag')! } });
  expect(revalidated.status).toBe(304);
});

test('GET /beacon.vitals.js serves the second script, web-vitals, with the same headers as /beacon.js', async () => {
  collector = createTestCollector();
  const response = await collector.request('/beacon.vitals.js');
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  expect(response.headers.get('cache-control')).toMatch(/max-age=\d+/);
  expect(response.headers.get('access-control-allow-origin')).toBe('*');
  expect(response.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
  const body = await response.text();
  expect(body).toBe(readFileSync(new URL('../../dist/beacon.vitals.min.js', import.meta.url), 'utf8'));
  expect(body).toContain('sitebeaconVitals');
  expect(response.headers.get('etag')).not.toBe((await collector.request('/beacon.js')).headers.get('etag'));
  const revalidated = await collector.request('/beacon.vitals.js', { headers: { 'if-none-match': response.headers.get('etag')! } });
  expect(revalidated.status).toBe(304);
});

test('the demo page loads /beacon.js for the demo site through the snippet with the early-capture stub, and has a button that throws', async () => {
  collector = createTestCollector({ demo: true });
  const response = await collector.request('/demo');
  expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
  // No policy of its own: nothing on the page would block the stub's inline script (docs/early-capture.md).
  expect(response.headers.get('content-security-policy')).toBeNull();
  const page = await response.text();
  expect(page).toContain(
    `<script>${EARLY_STUB}</script>\n<script src="http://127.0.0.1:8787/beacon.js" data-site-key="demo" data-ingest-origin="http://127.0.0.1:8787" async></script>`,
  );
  expect(page).toContain('<button id="throw"');
});

test('without --demo there is no page at /demo', async () => {
  collector = createTestCollector();
  expect((await collector.request('/demo')).status).toBe(404);
});
