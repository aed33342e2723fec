// The beacon's cost (issue 3, issue 6 part 4): dist/beacon.min.js bytes (raw, gzip -9, brotli 11)
// and main-thread time of its start in Chromium, median of 20 page loads.
//
// The start is timed in the page, around an inline copy of the script, so no network time is
// counted: parse, compile, run, init(), the listeners, and web-vitals' observers. The page is
// cross-origin isolated (COOP + COEP) so performance.now() has 5 µs resolution, not 100 µs.
// "cold" is the first load in a new browser context (a new renderer: nothing compiled yet);
// "warm" is the same page reloaded, as on a visitor's second page of a site. For scale, the same
// is measured for web-vitals' own IIFE registering its five metrics.
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
  const webVitals = readFileSync(new URL('../node_modules/web-vitals/dist/web-vitals.iife.js', import.meta.url), 'utf8');
  const scripts = {
    beacon: `<script data-site-key="bench" data-ingest-origin="http://127.0.0.1:9">${beacon}</script>`,
    'web-vitals': `<script>${webVitals};for (const on of ['onLCP','onCLS','onINP','onFCP','onTTFB']) webVitals[on](() => {});</script>`,
    empty: '<script></script>',
  };
  const server = createServer((req, res) => {
    res.writeHead(200, {
      'content-type': 'text/html',
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-embedder-policy': 'require-corp',
    });
    res.end(`<!doctype html><title>bench</title><script>window.__t0 = performance.now();</script>
${scripts[decodeURIComponent(req.url.slice(1))] ?? ''}<script>window.__t1 = performance.now();</script><p>page</p>`);
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
    return { size: sizeOf(beacon), webVitalsSize: sizeOf(webVitals), start, loads: LOADS };
  } finally {
    await browser.close();
    server.close();
  }
};
