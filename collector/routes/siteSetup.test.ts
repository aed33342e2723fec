import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { EARLY_STUB } from '../../beacon/lib/earlyStub';
import { createTestCollector } from '../testing/testCollector';

let collector: ReturnType<typeof createTestCollector>;
let shop: string;
beforeEach(async () => {
  collector = createTestCollector({ ingestUrl: 'https://in.example' });
  shop = await collector.addSite(['https://shop.example'], 'Shop');
});
afterEach(() => collector.close());

const setupOf = (siteKey: string, key?: string) =>
  collector.request(`/api/v1/sites/${siteKey}/setup`, { headers: key ? { authorization: `Bearer ${key}` } : {} });

test('the setup names the generated URLs, the SRI hash of the served beacon, the snippet (stub, then the tag carrying it), the tag alone and the CSP sources with the stub\'s hash', async () => {
  const response = await setupOf(shop, await collector.apiKey(shop));
  expect(response.status).toBe(200);
  const setup = (await response.json()) as Record<string, any>;
  const beacon = readFileSync(new URL('../../dist/beacon.min.js', import.meta.url));
  const integrity = `sha384-${createHash('sha384').update(beacon).digest('base64')}`;
  const tag = `<script src="https://in.example/beacon.js" data-site-key="${shop}" data-ingest-origin="https://in.example" integrity="${integrity}" crossorigin="anonymous" async></script>`;
  expect(setup).toMatchObject({
    site_key: shop,
    name: 'Shop',
    app_url: 'http://127.0.0.1:8787',
    ingest_url: 'https://in.example',
    api_base: 'https://in.example/api',
    legacy_api_base: 'http://127.0.0.1:8787/api',
    beacon_url: 'https://in.example/beacon.js',
    integrity,
    snippet: `<script>${EARLY_STUB}</script>\n${tag}`,
    snippet_without_stub: tag,
    csp_sources: { 'connect-src': ['https://in.example'], 'script-src': ['https://in.example', `'sha256-${createHash('sha256').update(EARLY_STUB).digest('base64')}'`] },
    allowed_origins: ['https://shop.example'],
    wordpress: null,
    agents: [],
    csp_projects: [],
    last_connectivity_check: null,
  });
  // The hash is of what /beacon.js serves.
  const served = new Uint8Array(await (await collector.request('/beacon.js')).arrayBuffer());
  expect(`sha384-${createHash('sha384').update(served).digest('base64')}`).toBe(integrity);
});

test('the setup needs a key of the site or of the installation', async () => {
  const blog = await collector.addSite(['https://blog.example'], 'Blog');
  expect((await setupOf(shop)).status).toBe(401);
  expect((await setupOf(shop, await collector.apiKey(blog))).status).toBe(403);
  expect((await setupOf(shop, await collector.apiKey())).status).toBe(200);
  expect((await setupOf('nope', await collector.apiKey())).status).toBe(404);
});

test("the OpenAPI document describes both snippets and the stub's hash among the CSP sources", async () => {
  const document = (await (await collector.request('/api/openapi.json')).json()) as { paths: Record<string, any> };
  const described = JSON.stringify(document.paths['/api/v1/sites/{site_key}/setup']);
  expect(described).toContain('snippet_without_stub');
  expect(described).toContain("'sha256-");
});
