// The beacon's cost (README, "Performance goals"): bytes (raw, gzip -9, brotli 11) of
// dist/beacon.min.js and of its second script dist/beacon.vitals.min.js, and main-thread time of
// each in Chromium, median of 20 page loads.
//
// The start is timed in the page, around an inline copy of the script, so no network time is
// counted: parse, compile, run. The page is cross-origin isolated (COOP + COEP) so
// performance.now() has 5 µs resolution, not 100 µs. "cold" is the first load in a new browser
// context (a new renderer: nothing compiled yet); "warm" is the same page reloaded, as on a
// visitor's second page of a site.
//
// - "beacon": beacon.min.js, the critical path: init(), the listeners, and the scheduling of the
//   second script. An inline script has no src to find its second script by, so the page makes
//   document.currentScript a tag with src="/beacon.js" for it; the server answers
//   /beacon.vitals.js, which the page then loads at idle, outside the timed span.
// - "beacon.vitals": beacon.vitals.min.js and the call that registers web-vitals' five metrics, as
//   it runs at idle (off the critical path, but main-thread time all the same).
// - "web-vitals": web-vitals' own IIFE registering its five metrics, for scale.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium } from '../e2e/chromium.mjs';

const LOADS = 20;

const sizeOf = (code) => {
  const bytes = Buffer.from(code);
  return {
    raw: bytes.length,
    gzip: gzipSync(bytes, { level: 9 }).length,
    brotli: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
};

const median = (samples) => [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)];

export const beaconBench = async () => {
  const beacon = readFileSync(new URL('../dist/beacon.min.js', import.meta.url), 'utf8');
  const beaconVitals = readFileSync(new URL('../dist/beacon.vitals.min.js', import.meta.url), 'utf8');
  const webVitals = readFileSync(new URL('../node_modules/web-vitals/dist/web-vitals.iife.js', import.meta.url), 'utf8');
  const tag = `const tag = document.createElement('script'); tag.src = '/beacon.js';
Object.assign(tag.dataset, { siteKey: 'bench', ingestOrigin: 'http://127.0.0.1:9' });
Object.defineProperty(document, 'currentScript', { configurable: true, get: () => tag });`;
  const scripts = {
    beacon: { before: `<script>${tag}</script>`, timed: `<script>${beacon}</script>` },
    'beacon.vitals': { timed: `<script>${beaconVitals};sitebeaconVitals(() => {}, false);</script>` },
    'web-vitals': { timed: `<script>${webVitals};for (const on of ['onLCP','onCLS','onINP','onFCP','onTTFB']) webVitals[on](() => {});</script>` },
    empty: { timed: '<script></script>' },
  };
  const server = createServer((req, res) => {
    if (req.url == '/beacon.vitals.js') {
      res.writeHead(200, { 'content-type': 'text/javascript', 'cross-origin-resource-policy': 'same-origin' });
      return res.end(beaconVitals);
    }
    const page = scripts[decodeURIComponent(req.url.slice(1))];
    res.writeHead(200, {
      'content-type': 'text/html',
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-embedder-policy': 'require-corp',
    });
    res.end(`<!doctype html><title>bench</title>${page?.before ?? ''}<script>window.__t0 = performance.now();</script>
${page?.timed ?? ''}<script>window.__t1 = performance.now();</script><p>page</p>`);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${server.address().port}`;
  const browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS });
  const startTime = async (name) => {
    const cold = [];
    const warm = [];
    for (let i = 0; i < LOADS; i++) {
      const context = await browser.newContext();
      const tab = await context.newPage();
      const elapsed = () => tab.evaluate(() => window.__t1 - window.__t0);
      await tab.goto(`${origin}/${encodeURIComponent(name)}`);
      cold.push(await elapsed());
      // The timed beacon is the real one: it goes on to load its second script at idle.
      if (name == 'beacon' && i == 0) await tab.waitForFunction(() => 'sitebeaconVitals' in window, null, { timeout: 5000 });
      await tab.reload();
      await tab.reload();
      warm.push(await elapsed());
      await context.close();
    }
    return { coldMs: median(cold), warmMs: median(warm) };
  };
  try {
    const start = {};
    for (const name of Object.keys(scripts)) start[name] = await startTime(name);
    return { size: sizeOf(beacon), vitalsSize: sizeOf(beaconVitals), webVitalsSize: sizeOf(webVitals), start, loads: LOADS };
  } finally {
    await browser.close();
    server.close();
  }
};
