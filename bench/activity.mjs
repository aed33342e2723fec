// The site page's Activity (docs/dashboard.md, "Pages and ranges"): `GET /api/v1/sites/{site_key}/daily?p75=false`
// at 24 hours (hourly points), 7 and 30 days, each with the previous range's totals, over 1,000,000
// error reports spread over 60 days (so that every previous range has reports too), 60,000 CSP
// violations and 20,000 page views, seeded through the store. Median of 9 calls each, in-process.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCollector, createSqliteStore, hashApiKey, newCspReport, newErrorReport, newSiteKey } from '../dist/collector.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;

export const activityBench = async ({ reports = 1_000_000, calls = 9 } = {}) => {
  const dir = mkdtempSync(join(tmpdir(), 'sitebeacon-activity-'));
  const store = createSqliteStore({ file: join(dir, 'bench.db') });
  const now = Date.now();
  try {
    const site = await store.sites.create({ site_key: newSiteKey(), name: 'Bench', allowed_origins: ['https://shop.example'] });
    for (let offset = 0; offset < reports; offset += 10_000) {
      const rows = Array.from({ length: Math.min(10_000, reports - offset) }, (_, i) => {
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
      await store.errors.insert(site.site_key, rows.map((row) => newErrorReport(row)), { received_at: now - Math.floor(((reports - offset) / reports) * 60 * DAY) });
    }
    for (let k = 0; k < 6; k++) {
      const violations = Array.from({ length: 10_000 }, (_, n) => ({
        report_type: 'csp-violation', document_uri: 'https://shop.example/', effective_directive: 'img-src', violated_directive: 'img-src', blocked_uri: `https://cdn${n % 40}.example/x${k}`,
      }));
      await store.csp.insert(site.site_key, violations.map(newCspReport), { received_at: now - (k < 3 ? k * HOUR : k * 5 * DAY) });
    }
    for (let n = 0; n < 20_000; n += 1) store.performance.upsert(site.site_key, { session_id: `s${n}`, metrics: { LCP: { value: 800 + (n % 4000) } } }, { received_at: now - (n % 48) * HOUR });
    await store.performance.upsert(site.site_key, { session_id: 'last', metrics: { LCP: { value: 1 } } }, { received_at: now });
    const key = 'sbk_bench_' + Math.random().toString(36).slice(2);
    await store.apiKeys.create({ key_hash: hashApiKey(key), name: 'bench', site_key: site.site_key });
    const app = createCollector({ store, beaconFile: '/dev/null', links: { appUrl: () => 'http://127.0.0.1' }, rateLimits: { perIp: 0, perSite: 0 } });
    const medianMs = async (span) => {
      // As the dashboard asks: `since` on the minute (dashboard/format.ts sinceOf).
      const since = new Date(Math.floor((Date.now() - span) / 60_000) * 60_000).toISOString();
      const samples = [];
      for (let i = 0; i < calls; i++) {
        const t0 = performance.now();
        const response = await app.fetch(new Request(`http://127.0.0.1/api/v1/sites/${site.site_key}/daily?p75=false&since=${since}`, { headers: { authorization: `Bearer ${key}` } }));
        if (response.status != 200) throw new Error(`daily answered ${response.status}`);
        await response.json();
        samples.push(performance.now() - t0);
      }
      samples.sort((a, b) => a - b);
      return samples[Math.floor(samples.length / 2)];
    };
    return { reports, calls, ms24h: await medianMs(DAY), ms7d: await medianMs(7 * DAY), ms30d: await medianMs(30 * DAY) };
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
};

/** Prints the figures as run.mjs prints the others. */
export const printActivityBench = ({ reports, calls, ms24h, ms7d, ms30d }) => {
  console.log(`\nThe site page's Activity (daily view with hours and the previous range) over ${reports} reports, median of ${calls} (ms)`);
  console.table({ '24 hours, hourly': { value: Number(ms24h.toFixed(1)) }, '7 days': { value: Number(ms7d.toFixed(1)) }, '30 days': { value: Number(ms30d.toFixed(1)) } });
};

// Run alone: node bench/activity.mjs (after npm run build).
if (import.meta.url == `file://${process.argv[1]}`) printActivityBench(await activityBench({ reports: Number(process.env.BENCH_REPORTS || 1_000_000) }));
