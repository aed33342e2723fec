import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { MAX_MAP_SEGMENTS } from '../core/stack/parseSourceMap';
import { listen } from '../listen';
import { sourceMapsOf } from '../sourcemaps/sourceMapsOf';
import { bigSourceMap as bigMap } from '../testing/bigSourceMap';
import { createTestCollector } from '../testing/testCollector';

/** Resolves once `check` holds, looking each turn of the event loop (the thread's job is posted, or its answer came). */
const until = async (check: () => boolean) => {
  while (!check()) await new Promise((resolve) => setImmediate(resolve));
};

describe('source maps are parsed off the HTTP thread (docs/source-maps.md, "Limits")', { timeout: 90_000 }, () => {
  let collector: ReturnType<typeof createTestCollector>;
  let url: string;
  let close: () => void;
  let site: string;
  let key: string;
  const upload = (map: string, release = '1.0') =>
    fetch(`${url}/api/v1/sites/${site}/sourcemaps`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ release, url: '~/app.min.js', map }),
    });
  const thread = () => sourceMapsOf(collector.store.sourceMaps).worker;

  beforeEach(async () => {
    collector = createTestCollector();
    site = await collector.addSite(['https://shop.example'], 'Shop');
    key = await collector.apiKey(site);
    const listening = await listen(collector.app, { port: 0, host: '127.0.0.1' });
    url = listening.url;
    close = () => listening.server.close(true);
  });
  afterEach(async () => {
    close();
    expect(collector.errors).toEqual([]);
    await collector.close();
  });

  test('GET /api/test-connectivity is answered while a big map is being checked, before the upload is', async () => {
    const order: string[] = [];
    const uploading = upload(bigMap(1_000_000)).then(async (response) => (order.push(`upload ${response.status}`), response));
    // The map's text has reached the map thread: from here on its parse is the thread's, seconds long.
    await until(() => thread().pending() == 1);
    const connectivity = await fetch(`${url}/api/test-connectivity`);
    order.push(`connectivity ${connectivity.status}`);
    expect(thread().pending()).toBe(1);
    await uploading;
    expect(order).toEqual(['connectivity 200', 'upload 201']);
    expect(thread().threaded()).toBe(true);
    expect((await collector.store.sourceMaps.list(site, '1.0')).map((map) => map.size)).toEqual([bigMap(1_000_000).length]);
  });

  test('hostile maps are refused by the thread (400), and too many mappings before decoding; nothing stored', async () => {
    for (const map of [
      '{"version":3,"sources":[],"names":[],"mappings":"AADA"}',
      '{"version":3,"sources":["a.js"],"names":[],"mappings":"AA!A"}',
      JSON.stringify({ version: 3, sources: ['a.js'], names: [], mappings: 'A,'.repeat(MAX_MAP_SEGMENTS + 1) }),
      JSON.stringify({ version: 3, sources: ['a.js'], names: [], mappings: ';'.repeat(1_000_001) }),
      '[]',
      '"{}"',
    ]) {
      const refused = await upload(map);
      expect(refused.status, map.slice(0, 60)).toBe(400);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('invalid_source_map');
    }
    expect(await collector.store.sourceMaps.list(site, '1.0')).toEqual([]);
  });

  test('the thread ended during an upload: 503 source_maps_unavailable with Retry-After, nothing stored; the next upload is stored', async () => {
    const uploading = upload(bigMap(1_000_000));
    await until(() => thread().pending() == 1);
    await thread().stop();
    const refused = await uploading;
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('source_maps_unavailable');
    expect(await collector.store.sourceMaps.list(site, '1.0')).toEqual([]);
    expect((await upload(bigMap(10))).status).toBe(201);
    expect((await collector.store.sourceMaps.list(site, '1.0')).map((map) => map.url)).toEqual(['~/app.min.js']);
  });

  test("an issue's events read while the thread is ended: 503 source_maps_unavailable; the next read maps the frames", async () => {
    expect((await upload(bigMap(1_000_000))).status).toBe(201);
    const stack = 'Error: x\n    at f (https://shop.example/app.min.js:1:1)';
    const report = await fetch(`${url}/api/error-reports/${site}`, {
      method: 'POST',
      headers: { origin: 'https://shop.example', 'content-type': 'application/json' },
      body: JSON.stringify({ error_type: 'javascript_error', error_message: 'x', stack, release: '1.0' }),
    });
    expect(report.status).toBe(202);
    const { fingerprint } = ((await collector.stored('errors', site)) as Array<{ fingerprint: string }>)[0]!;
    const events = () => fetch(`${url}/api/v1/sites/${site}/issues/${fingerprint}/events`, { headers: { authorization: `Bearer ${key}` } });
    // The upload left the map parsed on the thread: ended, the thread takes its cache with it.
    await thread().stop();
    const reading = events();
    await until(() => thread().pending() == 1);
    await thread().stop();
    const refused = await reading;
    expect(refused.status).toBe(503);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('source_maps_unavailable');
    const read = await events();
    expect(read.status).toBe(200);
    const { items } = (await read.json()) as { items: Array<{ frames: Array<{ original: { file: string; line: number } | null }> }> };
    expect(items[0]!.frames[0]!.original).toMatchObject({ file: 'src/a.js', line: 1 });
  });
});
