// The read path: `GET /api/v1/sites/{site_key}/summary` for one site over
// 1,000,000 stored error reports (plus CSP reports and sessions), seeded through the store, not
// over HTTP. Median of 20 calls, through the app in-process. And the dashboard's site page's data:
// its five read-API calls for 7 days (dashboard/siteReads.ts), made together, median of 5 (the
// site page's goal: interactive under 1 s, README, "Performance goals").
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCollector, createSqliteStore, hashApiKey, newCspReport, newErrorReport, newSiteKey } from '../dist/collector.js';

export const summaryBench = async ({ reports = 1_000_000, calls = 20 } = {}) => {
  const dir = mkdtempSync(join(tmpdir(), 'sitebeacon-summary-'));
  const store = createSqliteStore({ file: join(dir, 'bench.db') });
  try {
    const site = await store.sites.create({ site_key: newSiteKey(), name: 'Bench', allowed_origins: ['https://shop.example'] });
    const started = performance.now();
    const day = 86_400_000;
    const now = Date.now();
    const batch = 10_000;
    for (let offset = 0; offset < reports; offset += batch) {
      const rows = Array.from({ length: Math.min(batch, reports - offset) }, (_, i) => {
        const n = offset + i;
        return {
          error_type: n % 10 == 0 ? 'resource_error' : 'javascript_error',
          error_name: 'TypeError',
          error_message: `Cannot read properties of undefined (reading 'field${n % 200}')`,
          stack: `TypeError: x\n    at handler${n % 200} (https://shop.example/app.js:1:${n % 5000})`,
          page_url: 'https://shop.example/cart',
          count: 1 + (n % 3),
        };
      });
      // Spread over 30 days, so `since` has something to cut.
      await store.errors.insert(site.site_key, rows.map((row) => newErrorReport(row)), { received_at: now - Math.floor(((reports - offset) / reports) * 30 * day) });
    }
    const cspRows = Array.from({ length: 50_000 }, (_, n) => ({
      report_type: 'csp-violation',
      document_uri: 'https://shop.example/',
      effective_directive: ['img-src', 'script-src-elem', 'connect-src'][n % 3],
      violated_directive: 'img-src',
      blocked_uri: `https://cdn${n % 40}.example/x`,
    }));
    await store.csp.insert(site.site_key, cspRows.map(newCspReport), { received_at: now });
    for (let n = 0; n < 20_000; n += 1) {
      const metrics = { LCP: { value: 800 + (n % 4000) }, INP: { value: 40 + (n % 600) }, CLS: { value: (n % 40) / 100 }, FCP: { value: 500 + (n % 2500) }, TTFB: { value: 100 + (n % 1500) } };
      store.performance.upsert(site.site_key, { session_id: `s${n}`, metrics }, { received_at: now });
    }
    await store.performance.upsert(site.site_key, { session_id: 'last', metrics: { LCP: { value: 1 } } }, { received_at: now });
    const seedSeconds = (performance.now() - started) / 1000;

    const key = 'sbk_bench_' + Math.random().toString(36).slice(2);
    await store.apiKeys.create({ key_hash: hashApiKey(key), name: 'bench', site_key: site.site_key });
    const app = createCollector({ store, beaconFile: '/dev/null', links: { appUrl: () => 'http://127.0.0.1' }, rateLimits: { perIp: 0, perSite: 0 } });
    const timeCall = async (query) => {
      const samples = [];
      for (let i = 0; i < calls; i++) {
        const t0 = performance.now();
        const response = await app.fetch(new Request(`http://127.0.0.1/api/v1/sites/${site.site_key}/summary${query}`, { headers: { authorization: `Bearer ${key}` } }));
        if (response.status != 200) throw new Error(`summary answered ${response.status}`);
        await response.json();
        samples.push(performance.now() - t0);
      }
      samples.sort((a, b) => a - b);
      return samples[Math.floor(samples.length / 2)];
    };
    // The dashboard's site page for 7 days, read as dashboard/boot.ts starts it: what is above the
    // fold (the activity series, the error groups) at once, then the CSP groups, vitals and pages
    // at once (a caller's heavy reads at once are bounded: collector/http/readSlots.ts).
    const sitePage = async () => {
      const since = new Date(now - 7 * day).toISOString();
      const read = (views) =>
        Promise.all(
          views.map(async (view) => {
            const response = await app.fetch(new Request(`http://127.0.0.1/api/v1/sites/${site.site_key}/${view}since=${since}`, { headers: { authorization: `Bearer ${key}` } }));
            if (response.status != 200) throw new Error(`${view} answered ${response.status}`);
            await response.json();
          }),
        );
      const samples = [];
      for (let i = 0; i < 5; i++) {
        const t0 = performance.now();
        await read(['daily?p75=false&', 'error-groups?']);
        await read(['csp-groups?limit=50&', 'vitals?', 'pages?']);
        samples.push(performance.now() - t0);
      }
      samples.sort((a, b) => a - b);
      return samples[2];
    };
    return {
      reports,
      seedSeconds,
      medianMs: await timeCall(''),
      medianMsSince7Days: await timeCall(`?since=${new Date(now - 7 * day).toISOString()}`),
      sitePageApiMs: await sitePage(),
      calls,
    };
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
};
