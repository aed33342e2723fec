// Reads never take ingest away (README, "Running it for real"): site B's ingest p99 while site A's
// API key loops the heaviest read view, `GET /api/v1/sites/{A}/error-groups` (7 days, 20 groups,
// each with its sessions and days), over BENCH_READ_REPORTS (default 300,000) reports of A seeded
// by bench/dashboardSeed.mjs, from READ_LOOPS concurrent loops, beside B's p99 at the same rate
// with no reads. B sends single error reports at a fixed BENCH_READS_RATE requests/s (default 200,
// over 10 connections) for BENCH_DURATION seconds each time. The goal: B's p99 within twice its
// baseline. Reads past the key's share (collector/http/readSlots.ts) are answered 429 and counted.
// Run alone: BENCH_READ_REPORTS=30000 BENCH_DURATION=5 node bench/readsUnderIngest.mjs
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { createSqliteStore, hashApiKey, newApiKey, newSiteKey } from '../dist/collector.js';
import { seedDashboardSite } from './dashboardSeed.mjs';
import { errorReport } from './ingest.mjs';
import { serveArgs, startServer } from './startServer.mjs';

const CONNECTIONS = 10;
const READ_LOOPS = 4;
const BODY = JSON.stringify(errorReport());

/** Single error reports to `siteKey` at `rate` requests/s for `seconds`; resolves to autocannon's result. */
const ingest = (url, siteKey, rate, seconds) =>
  new Promise((resolve, reject) =>
    autocannon(
      { url: `${url}/api/error-reports/${siteKey}`, connections: CONNECTIONS, overallRate: rate, duration: seconds, method: 'POST', headers: { 'content-type': 'application/json' }, body: BODY },
      (error, result) => (error ? reject(error) : resolve(result)),
    ),
  );

/** `loops` loops reading `path` with `key` one after another until `stop()`; `done` resolves to what they saw. */
const readLoops = (url, path, key, loops) => {
  let stopped = false;
  const seen = { reads: 0, rateLimited: 0, failed: 0, ms: [] };
  const loop = async () => {
    while (!stopped) {
      const started = performance.now();
      const response = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${key}` } });
      await response.arrayBuffer();
      if (response.status == 200) {
        seen.reads++;
        seen.ms.push(performance.now() - started);
      } else if (response.status == 429) {
        seen.rateLimited++;
        // As a client that honours Retry-After would, in short: the loop keeps the key at its share.
        await new Promise((resolve) => setTimeout(resolve, 50));
      } else seen.failed++;
    }
  };
  const running = Array.from({ length: loops }, loop);
  return { stop: () => (stopped = true), done: Promise.all(running).then(() => seen) };
};

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor(sorted.length / 2)] : 0;
};

export const readsUnderIngestBench = async ({ reports = 300_000, rate = 200, duration = 5 } = {}) => {
  const dir = mkdtempSync(join(tmpdir(), 'sitebeacon-reads-bench-'));
  const db = join(dir, 'bench.db');
  try {
    const seeded = await seedDashboardSite({ file: db, reports });
    const key = newApiKey();
    const store = createSqliteStore({ file: db });
    const { site_key: siteB } = await store.sites.create({ site_key: newSiteKey(), name: 'Bench blog', allowed_origins: ['https://blog.example'] });
    await store.apiKeys.create({ key_hash: hashApiKey(key), name: 'bench reader', site_key: seeded.siteKey });
    await store.close();

    const server = await startServer(serveArgs(db, '--log-level', 'silent'));
    try {
      const path = `/api/v1/sites/${seeded.siteKey}/error-groups`;
      // One read first: the reader's cache is what a collector running for a while has.
      const first = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${key}` } });
      if (first.status != 200) throw new Error(`${path} answered ${first.status}`);
      await first.arrayBuffer();
      // A second of ingest first: the writer thread started and the code warm, for both measurements.
      await ingest(server.url, siteB, rate, 1);
      const baseline = await ingest(server.url, siteB, rate, duration);
      const reads = readLoops(server.url, path, key, READ_LOOPS);
      const during = await ingest(server.url, siteB, rate, duration);
      reads.stop();
      const seen = await reads.done;
      return {
        reports,
        seedSeconds: seeded.seedSeconds,
        rate,
        duration,
        readLoops: READ_LOOPS,
        p99BaselineMs: baseline.latency.p99,
        p99Ms: during.latency.p99,
        requestsPerSecondBaseline: baseline.requests.average,
        requestsPerSecond: during.requests.average,
        non2xx: baseline.non2xx + baseline.errors + baseline.timeouts + during.non2xx + during.errors + during.timeouts,
        reads: seen.reads,
        readsPerSecond: seen.reads / duration,
        readMedianMs: median(seen.ms),
        readsRateLimited: seen.rateLimited,
        readsFailed: seen.failed,
      };
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.table(
    await readsUnderIngestBench({
      reports: Number(process.env.BENCH_READ_REPORTS || 300_000),
      rate: Number(process.env.BENCH_READS_RATE || 200),
      duration: Number(process.env.BENCH_DURATION || 5),
    }),
  );
}
