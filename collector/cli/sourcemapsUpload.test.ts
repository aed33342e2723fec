import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { listen } from '../listen';
import { buildStackApp, STACK_APP_BUNDLE } from '../testing/buildStackApp';
import { runCli } from '../testing/runCli';
import { createTestCollector } from '../testing/testCollector';

let dir: string;
let collector: ReturnType<typeof createTestCollector>;
let close: () => Promise<void>;
let url: string;
let site: string;
let key: string;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sitebeacon-sourcemaps-'));
  collector = createTestCollector();
  site = await collector.addSite(['https://shop.example'], 'Shop');
  key = await collector.apiKey(site);
  const listening = await listen(collector.app, { port: 0, host: '127.0.0.1' });
  url = listening.url;
  close = () => listening.server.close(true);
});
afterEach(async () => {
  await close();
  expect(collector.errors).toEqual([]);
  await collector.close();
  rmSync(dir, { recursive: true, force: true });
});

const upload = (...flags: string[]) =>
  runCli(['sourcemaps', 'upload', '--site', site, '--release', '1.0', '--collector', url, ...flags, join(dir, 'dist')], { env: { SITEBEACON_API_KEY: key } });

test('a fresh rollup build: its map uploaded as ~/ and the script\'s path, with its debug ID; a map no script names is skipped', { timeout: 60_000 }, async () => {
  const { map } = await buildStackApp(join(dir, 'dist', 'assets'));
  writeFileSync(join(dir, 'dist', 'orphan.js.map'), readFileSync(map));
  const debugId = (JSON.parse(readFileSync(map, 'utf8')) as { debugId: string }).debugId;
  const { code, out, err } = await upload();
  expect(err).toBe('');
  expect(code).toBe(0);
  expect(out.split('\n')).toEqual([
    `uploaded assets/app.min.js.map as ~/assets/app.min.js (debug ID ${debugId})`,
    'skipped orphan.js.map: no script under the directory names this map',
  ]);
  expect(await collector.store.sourceMaps.list(site, '1.0')).toEqual([expect.objectContaining({ url: '~/assets/app.min.js', debug_id: debugId })]);
  expect(await collector.store.sourceMaps.text(site, '1.0', '~/assets/app.min.js')).toBe(readFileSync(map, 'utf8'));
});

test('--url-prefix and --json: the committed bundle for one origin; a map the collector refuses fails the command', async () => {
  mkdirSync(join(dir, 'dist'));
  for (const file of ['app.min.js', 'app.min.js.map']) copyFileSync(join(STACK_APP_BUNDLE, file), join(dir, 'dist', file));
  writeFileSync(join(dir, 'dist', 'broken.js'), 'x()\n//# sourceMappingURL=broken.js.map\n');
  writeFileSync(join(dir, 'dist', 'broken.js.map'), '{"version":3,"sources":[],"names":[],"mappings":"AADA"}');
  const { code, out } = await upload('--url-prefix', 'https://cdn.shop.example/', '--json');
  expect(code).toBe(1);
  const lines = out.split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
  expect(lines).toEqual([
    { map: 'app.min.js.map', url: 'https://cdn.shop.example/app.min.js', status: 'uploaded', debug_id: expect.stringMatching(/^[0-9a-f-]{36}$/) },
    { map: 'broken.js.map', url: 'https://cdn.shop.example/broken.js', status: 'failed', debug_id: null, message: expect.stringContaining('400 invalid_source_map') },
  ]);
  expect((await collector.store.sourceMaps.list(site, '1.0')).map((stored) => stored.url)).toEqual(['https://cdn.shop.example/app.min.js']);
});

test("another site's key: every upload fails with 403", async () => {
  mkdirSync(join(dir, 'dist'));
  for (const file of ['app.min.js', 'app.min.js.map']) copyFileSync(join(STACK_APP_BUNDLE, file), join(dir, 'dist', file));
  key = await collector.apiKey(await collector.addSite(['https://blog.example'], 'Blog'));
  const { code, out } = await upload();
  expect(code).toBe(1);
  expect(out).toMatch(/^failed app\.min\.js\.map as ~\/app\.min\.js: 403 forbidden/);
  expect(await collector.store.sourceMaps.list(site, '1.0')).toEqual([]);
});
