// bench/partitionRetention.mjs at a tiny size, so that it cannot rot (retention on
// PostgreSQL, batched deletes against partitions by day: docs/retention.md). Its figures are not checked (speed is
// measured by running it, README "Retention"); what it must get right is: every old report gone both
// ways, the aggregates adding up to what remains, no ingest request failing meanwhile, and every
// figure it reports present. On the test run's PostgreSQL server. Needs `npm run build`.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, inject, test } from 'vitest';

const BENCH = fileURLToPath(new URL('../bench/partitionRetention.mjs', import.meta.url));
const ROWS = 2000;

test('the partition-retention bench runs both ways at a tiny size: old reports gone, aggregates consistent, ingest unharmed', async () => {
  const { stdout } = await promisify(execFile)(process.execPath, [BENCH], {
    env: { ...process.env, SITEBEACON_BENCH_DATABASE_URL: inject('postgresUrl'), BENCH_PARTITION_ROWS: String(ROWS), BENCH_DURATION: '0.5' },
  });
  const { results } = JSON.parse(stdout) as { results: Array<Record<string, any>> };
  expect(results.map((result) => result.way)).toEqual(['batched deletes', 'partition by day']);
  const latency = { requests: expect.any(Number), p50Ms: expect.any(Number), p99Ms: expect.any(Number) };
  const size = { tableMB: expect.any(Number), withIndexesMB: expect.any(Number) };
  for (const result of results) {
    expect(result).toMatchObject({
      oldRows: ROWS,
      oldRowsLeft: 0,
      failedRequests: 0,
      aggregatesConsistent: true,
      deletionSeconds: expect.any(Number),
      before: { single: latency, batch: latency },
      during: { single: latency },
      sizeBefore: size,
      sizeAfter: size,
      sizeAfterVacuum: size,
    });
    expect(result.before.single.requests).toBeGreaterThan(0);
    // Every old report gone, and only those: what ingest stored meanwhile is all there.
    expect(result.reportsInserted).toBeGreaterThan(0);
    expect(result.reportsLeft).toBe(result.reportsInserted);
    expect(result.sizeBefore.tableMB).toBeGreaterThan(0);
    expect(result.sizeBefore.withIndexesMB).toBeGreaterThan(result.sizeBefore.tableMB);
  }
  // Two batches of 1,000, and the one that finds none left; each seeded day (7 days from 9 days ago:
  // 8 UTC dates, or 7 at midnight) dropped whole.
  expect(results[0]!.batches).toBe(3);
  expect(results[1]!.daysDropped).toBeGreaterThanOrEqual(7);
  expect(results[1]!.daysDropped).toBeLessThanOrEqual(8);
  expect(results[1]!.longestDetachMs).toEqual(expect.any(Number));
}, 60_000);
