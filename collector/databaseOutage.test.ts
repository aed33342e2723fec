// A PostgreSQL collector through database faults (README, "Several collectors on PostgreSQL",
// "When the database goes away"): the server stopped and started under load, and every backend of
// the collector terminated. The collector runs in this process (createCollector on the real
// PostgreSQL store, served over real HTTP by listen(); spawnCollector would run the built dist/,
// not these sources): an unhandled 'error' event from `pg` would end this very process, which
// vitest reports as a failure of the run.
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { createCollector } from './app';
import { listen } from './listen';
import type { Store } from './store/contract';
import { openStore } from './store/openStore';
import { startRetention } from './store/startRetention';
import { StoreUnavailableError } from './store/storeUnavailableError';
import { startPostgresServer, type PostgresServer } from './testing/postgresServer.mjs';
import { until as untilHolds } from './testing/until';

let server: PostgresServer;
beforeAll(async () => {
  server = await startPostgresServer();
}, 60_000);
afterAll(() => server?.stop());

const sql = async <T = Record<string, unknown>>(text: string, values: unknown[] = []) => {
  const client = new pg.Client({ connectionString: server.url() });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
};

const running: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of running.splice(0)) await close();
  await sql('TRUNCATE error_reports').catch(() => {});
});

/**
 * A collector in this process on the test server's database, listening on a loopback port, with
 * a retention sweep every 100 ms (as `serve --retention-days` runs it) whose outcomes are counted.
 */
const startCollector = async () => {
  const store: Store = await openStore(server.url());
  const internalErrors: unknown[] = [];
  const app = createCollector({
    store,
    beaconFile: fileURLToPath(new URL('../dist/beacon.min.js', import.meta.url)),
    links: { appUrl: () => 'http://127.0.0.1', ingestUrl: () => undefined },
    rateLimits: { perIp: 0, perSite: 0 },
    logError: (error) => internalErrors.push(error),
  });
  const sweeps = { done: 0, failed: [] as unknown[] };
  const counted: Store = {
    ...store,
    retention: { deleteBefore: async (...args) => store.retention.deleteBefore(...args).then((deleted) => (sweeps.done++, deleted)) },
  };
  const retention = startRetention(counted, { days: 30, intervalMs: 100, onError: (error) => sweeps.failed.push(error) });
  const { server: http, url } = await listen(app, { port: 0, host: '127.0.0.1' });
  running.push(async () => {
    await retention.stop();
    await http.close(true);
    await store.close();
  });
  return { url, internalErrors, sweeps };
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const until = (what: string, condition: () => boolean | Promise<boolean>, ms = 20_000) => untilHolds(condition, { what, ms, everyMs: 20 });

/**
 * Error reports from a few workers, one at a time each, each with a message of its own, until
 * `stop()`: about 40 a second. A 202 is an acknowledgement; the only other answer allowed is 503
 * `database_unavailable` with Retry-After. Anything else ends the stream with a failure.
 */
const reportStream = (url: string, workers = 4) => {
  const acknowledged: string[] = [];
  const refused: string[] = [];
  const unexpected: string[] = [];
  let stopped = false;
  const work = async (worker: number) => {
    for (let i = 0; !stopped && unexpected.length == 0; i++) {
      const message = `w${worker}-${i}`;
      const response = await fetch(`${url}/api/error-reports`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ error_type: 'js', error_message: message }),
      });
      const text = await response.text();
      if (response.status == 202) acknowledged.push(message);
      else if (response.status == 503 && JSON.parse(text).error?.code == 'database_unavailable' && Number(response.headers.get('retry-after')) >= 1)
        refused.push(message);
      else unexpected.push(`${response.status} ${response.headers.get('retry-after')} ${text}`);
      await sleep(100);
    }
  };
  const done = Promise.all(Array.from({ length: workers }, (_, worker) => work(worker)));
  return {
    acknowledged,
    refused,
    unexpected,
    stop: async () => {
      stopped = true;
      await done;
    },
  };
};

const health = async (url: string) => {
  const response = await fetch(`${url}/api/health`);
  return { status: response.status, body: (await response.json()) as { status: string } };
};

const storedMessages = async () =>
  (await sql<{ error_message: string }>('SELECT error_message FROM error_reports')).map((row) => row.error_message);

/** Every acknowledged report is stored exactly once; nothing was stored that was not sent. */
const expectAcknowledgedStored = async (stream: ReturnType<typeof reportStream>) => {
  const counts = new Map<string, number>();
  for (const message of await storedMessages()) counts.set(message, (counts.get(message) ?? 0) + 1);
  expect(stream.acknowledged.filter((message) => counts.get(message) !== 1)).toEqual([]);
  const sent = new Set([...stream.acknowledged, ...stream.refused]);
  expect([...counts].filter(([message, count]) => count > 1 || !sent.has(message))).toEqual([]);
};

// fast: the server terminates its backends (FATAL 57P01) and closes; immediate: they are killed (ECONNRESET) and it recovers at start.
test.each(['fast', 'immediate'] as const)('PostgreSQL stopped (%s) for 3 s under load and started again: the collector lives, answers 503 meanwhile, and reconnects', async (mode) => {
  const { url, internalErrors, sweeps } = await startCollector();
  const stream = reportStream(url);
  const healthSeen: number[] = [];
  let polling = true;
  const poll = (async () => {
    while (polling) {
      const { status } = await health(url);
      if (healthSeen.at(-1) !== status) healthSeen.push(status);
      await sleep(100);
    }
  })();
  try {
    await until('50 reports acknowledged', () => stream.acknowledged.length >= 50 || stream.unexpected.length > 0);
    await server.halt(mode);
    const acknowledgedWhenStopped = stream.acknowledged.length;
    await until('health 503 while the server is stopped', () => healthSeen.at(-1) == 503);
    await sleep(3000);
    // Nothing can be committed while the server is down: at most the group in flight at the stop.
    expect(stream.acknowledged.length - acknowledgedWhenStopped).toBeLessThan(10);
    await server.restart();
    await until('health 200 after the restart', () => healthSeen.at(-1) == 200);
    // The retention timer failed meanwhile and sweeps again: nothing of the outage is stuck.
    const sweepsAfterRestart = sweeps.done;
    await until('a retention sweep after the restart', () => sweeps.done > sweepsAfterRestart);
    const acknowledgedAfterRestart = stream.acknowledged.length;
    await until('50 more reports acknowledged', () => stream.acknowledged.length >= acknowledgedAfterRestart + 50 || stream.unexpected.length > 0);
  } finally {
    polling = false;
    await poll;
    await stream.stop();
  }
  expect(stream.unexpected).toEqual([]);
  expect(stream.refused.length).toBeGreaterThan(0);
  expect(healthSeen).toEqual([200, 503, 200]);
  expect(internalErrors).toEqual([]);
  expect(sweeps.failed.length).toBeGreaterThan(0);
  expect(sweeps.failed.filter((error) => !(error instanceof StoreUnavailableError))).toEqual([]);
  await expectAcknowledgedStored(stream);
}, 60_000);

test('every backend of the collector terminated (pg_terminate_backend), idle and busy, under load: it keeps serving', async () => {
  const { url, internalErrors } = await startCollector();
  const stream = reportStream(url);
  const terminatedStates = new Set<string>();
  const terminateAll = async () => {
    const rows = await sql<{ state: string; terminated: boolean }>(
      `SELECT state, pg_terminate_backend(pid) AS terminated FROM pg_stat_activity WHERE application_name = 'sitebeacon' AND pid <> pg_backend_pid()`,
    );
    for (const row of rows) if (row.terminated) terminatedStates.add(row.state);
  };
  // A lock on error_reports holds the group commit's INSERT: its client is checked out, its backend busy.
  const locker = new pg.Client({ connectionString: server.url() });
  await locker.connect();
  try {
    await until('20 reports acknowledged', () => stream.acknowledged.length >= 20 || stream.unexpected.length > 0);
    await terminateAll();
    await until('10 more reports acknowledged', () => stream.acknowledged.length >= 30 || stream.unexpected.length > 0);
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE error_reports IN ACCESS EXCLUSIVE MODE');
    await until('an INSERT waiting on the lock', async () =>
      (await sql(`SELECT 1 FROM pg_stat_activity WHERE application_name = 'sitebeacon' AND state = 'active' AND query LIKE 'INSERT%'`)).length > 0,
    );
    await terminateAll();
    await locker.query('COMMIT');
    const acknowledged = stream.acknowledged.length;
    await until('20 more reports acknowledged', () => stream.acknowledged.length >= acknowledged + 20 || stream.unexpected.length > 0);
  } finally {
    await stream.stop();
    await locker.end();
  }
  expect(stream.unexpected).toEqual([]);
  expect(terminatedStates).toContain('idle');
  expect(terminatedStates).toContain('active');
  expect((await health(url)).status).toBe(200);
  expect(internalErrors).toEqual([]);
  await expectAcknowledgedStored(stream);
}, 60_000);
