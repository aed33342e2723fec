import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { MAX_MAP_CHARS } from '../core/stack/parseSourceMap';
import { scriptComments } from '../core/stack/scriptComments';
import { STACK_APP_BUNDLE } from '../testing/buildStackApp';
import { createTestCollector } from '../testing/testCollector';

const SHOP = 'https://shop.example';
const MAP = readFileSync(join(STACK_APP_BUNDLE, 'app.min.js.map'), 'utf8');
const DEBUG_ID = scriptComments(readFileSync(join(STACK_APP_BUNDLE, 'app.min.js'), 'utf8')).debugId;
const THROW_LINE = "    throw new TypeError('checkout total has no currency');";
/** The three browsers' stacks of the committed bundle's error (collector/fixtures/stacks/). */
const stackOf = (browser: string) =>
  (JSON.parse(readFileSync(new URL(`../fixtures/stacks/${browser}.json`, import.meta.url), 'utf8')) as { stacks: Record<string, string> }).stacks.bundle!;
const ERROR = { error_type: 'javascript_error', error_name: 'TypeError', error_message: 'checkout total has no currency' };

interface Frame {
  file: string | null;
  function: string | null;
  original: { file: string; line: number; column: number; function: string | null; context: { line: string } | null } | null;
  unmapped: string | null;
  in_app: boolean;
}

describe('source maps: upload, list, remove, and events mapped by them', { timeout: 30_000 }, () => {
  let collector: ReturnType<typeof createTestCollector>;
  let site: string;
  let key: string;
  const auth = () => ({ authorization: `Bearer ${key}` });
  const upload = (body: unknown, headers = auth()) => collector.post(`/api/v1/sites/${site}/sourcemaps`, body, headers);
  const maps = (query: string, method = 'GET') => collector.request(`/api/v1/sites/${site}/sourcemaps?${query}`, { method, headers: auth() });
  const json = async <T>(path: string) => {
    const response = await collector.request(`/api/v1/sites/${site}/issues${path}`, { headers: auth() });
    expect(response.status, await response.clone().text()).toBe(200);
    return (await response.json()) as T;
  };
  /** Every event's frames, of every issue, by the stack they came from. */
  const framesByStack = async () => {
    const frames = new Map<string, Frame[]>();
    for (const { fingerprint } of (await json<{ items: Array<{ fingerprint: string }> }>('')).items) {
      const { items } = await json<{ items: Array<{ stack: string; frames: Frame[] }> }>(`/${fingerprint}/events?limit=100`);
      for (const item of items) frames.set(item.stack, item.frames);
    }
    return frames;
  };
  const report = (browser: string, release?: string) =>
    collector.post(`/api/error-reports/${site}`, { ...ERROR, stack: stackOf(browser), page_url: `${SHOP}/cart`, release }, { origin: SHOP });

  beforeEach(async () => {
    collector = createTestCollector();
    site = await collector.addSite([SHOP], 'Shop');
    key = await collector.apiKey(site);
  });
  afterEach(async () => {
    expect(collector.errors).toEqual([]);
    await collector.close();
  });

  test("the bundle's map uploaded for ~/app.min.js maps Chromium's, Firefox's and WebKit's stacks to src/format.js", async () => {
    const stored = await upload({ release: '1.0', url: '~/app.min.js', map: MAP });
    expect(stored.status, await stored.clone().text()).toBe(201);
    expect(await stored.json()).toEqual({ release: '1.0', url: '~/app.min.js', debug_id: DEBUG_ID });
    expect(DEBUG_ID).toMatch(/^[0-9a-f-]{36}$/);
    for (const browser of ['chromium', 'firefox', 'webkit']) expect((await report(browser, '1.0')).status).toBe(202);
    const frames = await framesByStack();
    for (const browser of ['chromium', 'firefox']) {
      const [thrower, checkout] = frames.get(stackOf(browser))!;
      expect(thrower).toMatchObject({ function: 't', unmapped: null, in_app: true });
      expect(thrower!.original).toMatchObject({ file: 'src/format.js', line: 3, column: 11, function: 'formatTotal', context: { line: THROW_LINE } });
      expect(checkout!.original).toMatchObject({ file: 'src/cart.js', line: 5, column: 10 });
      // The page's own script (stacks.js) has no map in the release.
      expect(frames.get(stackOf(browser))!.find((frame) => frame.file?.endsWith('/stacks.js'))).toMatchObject({ original: null, unmapped: 'no_map' });
    }
    // WebKit's column is the call's `(`: the same line; its tail call left no caller to name the function.
    const [webkitThrower] = frames.get(stackOf('webkit'))!;
    expect(webkitThrower!.original).toMatchObject({ file: 'src/format.js', line: 3, function: null, context: { line: THROW_LINE } });
  });

  test('a map for the exact URL is found too; another release finds no map (no_map), no release is no_release', async () => {
    const origin = (JSON.parse(readFileSync(new URL('../fixtures/stacks/chromium.json', import.meta.url), 'utf8')) as { origin: string }).origin;
    expect((await upload({ release: '2.0', url: `${origin}/app.min.js`, map: MAP })).status).toBe(201);
    await report('chromium', '2.0');
    let frames = await framesByStack();
    expect(frames.get(stackOf('chromium'))![0]!.original).toMatchObject({ file: 'src/format.js', line: 3 });
    await collector.close();
    collector = createTestCollector();
    site = await collector.addSite([SHOP], 'Shop');
    key = await collector.apiKey(site);
    // Without its debug ID: a report without a release is then mapped by no map (docs/source-maps.md, "Debug IDs").
    const { debugId: _id, ...withoutId } = JSON.parse(MAP) as Record<string, unknown>;
    await upload({ release: '2.0', url: '~/app.min.js', map: JSON.stringify(withoutId) });
    await report('firefox', '9.9');
    await report('chromium');
    frames = await framesByStack();
    expect(frames.get(stackOf('firefox'))![0]).toMatchObject({ original: null, unmapped: 'no_map', function: 't' });
    expect(frames.get(stackOf('chromium'))!.map((frame) => frame.unmapped)).toEqual(frames.get(stackOf('chromium'))!.map(() => 'no_release'));
  });

  test('multipart: the map as a file part is stored as JSON would be; a field given twice is 400', async () => {
    const form = (extra?: [string, string]) => {
      const body = new FormData();
      body.set('release', '4.0');
      body.set('url', '~/app.min.js');
      body.set('map', new Blob([MAP], { type: 'application/json' }), 'app.min.js.map');
      if (extra) body.append(...extra);
      return body;
    };
    const send = (body: FormData) => collector.request(`/api/v1/sites/${site}/sourcemaps`, { method: 'POST', body, headers: auth() });
    const stored = await send(form());
    expect(stored.status, await stored.clone().text()).toBe(201);
    expect(await stored.json()).toEqual({ release: '4.0', url: '~/app.min.js', debug_id: DEBUG_ID });
    expect(await collector.store.sourceMaps.text(site, '4.0', '~/app.min.js')).toBe(MAP);
    expect((await send(form(['release', '4.1']))).status).toBe(400);
  });

  test('GET lists a release\'s maps; DELETE removes one URL, then the release', async () => {
    await upload({ release: '3.0', url: '~/app.min.js', map: MAP });
    await upload({ release: '3.0', url: '~/vendor.min.js', map: MAP });
    const listed = (await (await maps('release=3.0')).json()) as { items: Array<{ url: string; size: number; debug_id: string }> };
    expect(listed.items.map((item) => [item.url, item.size, item.debug_id])).toEqual([
      ['~/app.min.js', MAP.length, DEBUG_ID],
      ['~/vendor.min.js', MAP.length, DEBUG_ID],
    ]);
    expect(await (await maps('release=3.0&url=~/vendor.min.js', 'DELETE')).json()).toEqual({ deleted: 1 });
    expect(await (await maps('release=3.0', 'DELETE')).json()).toEqual({ deleted: 1 });
    expect(await (await maps('release=3.0')).json()).toEqual({ items: [] });
    expect((await maps('')).status).toBe(400);
  });

  test('hostile uploads: a bad VLQ is 400, too big is 413, another site\'s key 403, a bad URL 400; nothing stored', async () => {
    const badVlq = JSON.stringify({ ...JSON.parse(MAP), mappings: 'AAAA,!!!!' });
    const refused = await upload({ release: '1.0', url: '~/app.min.js', map: badVlq });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('invalid_source_map');
    expect((await upload({ release: '1.0', url: '~/app.min.js', map: '{"version":3,"sources":[],"names":[],"mappings":"AADA"}' })).status).toBe(400);
    expect((await upload({ release: '1.0', url: '~/app.min.js', map: 'x'.repeat(MAX_MAP_CHARS + 1) })).status).toBe(413);
    const huge = await upload(`{"release":"1.0","url":"~/a.js","map":"${'x'.repeat(33 * 1024 * 1024)}"}`);
    expect(huge.status).toBe(413);
    expect((await upload({ release: '1.0', url: 'javascript:alert(1)', map: MAP })).status).toBe(400);
    expect((await upload({ release: '', url: '~/a.js', map: MAP })).status).toBe(400);
    const blog = await collector.addSite(['https://blog.example'], 'Blog');
    const blogKey = await collector.apiKey(blog);
    expect((await upload({ release: '1.0', url: '~/app.min.js', map: MAP }, { authorization: `Bearer ${blogKey}` })).status).toBe(403);
    expect((await upload({ release: '1.0', url: '~/app.min.js', map: MAP }, {} as { authorization: string })).status).toBe(401);
    expect(await collector.store.sourceMaps.list(site, '1.0')).toEqual([]);
  });
});
