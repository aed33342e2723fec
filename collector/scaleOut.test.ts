// Several collector processes on one PostgreSQL database (docs/scale-out.md).
// Needs `npm run build` (the processes run dist/cli.js).
import { afterEach, beforeEach, expect, test } from 'vitest';
import { exportRecords, runCli, spawnCollector, type CollectorProcess } from './testing/spawnCollector';
import { usePostgresDatabase, type TestDatabase } from './testing/testDatabase';

const database = usePostgresDatabase('scale_out');
let schema: TestDatabase;
let running: CollectorProcess[] = [];
beforeEach(async () => {
  schema = await database.schema('scale_out');
});
afterEach(async () => {
  await Promise.all(running.map((collector) => collector.stop('SIGKILL')));
  running = [];
  await schema.drop();
});
const start = async () => {
  const collector = await spawnCollector({ db: schema.url, args: ['--rate-limit', '0', '--site-rate-limit', '0'] });
  running.push(collector);
  return collector;
};
const post = (url: string, path: string, body: unknown, method = 'POST') =>
  fetch(`${url}${path}`, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

test('two collectors on one database, one SIGKILLed mid-stream and restarted: every acknowledged report is stored exactly once', async () => {
  // Both start at once: one migrates, the other waits on the advisory lock.
  const collectors = await Promise.all([start(), start()]);
  const acknowledged: string[] = [];
  const attempted = new Set<string>();
  let stopped = false;
  let refused = 0;
  // Workers alternate between the two collectors; every third request is a batch of 50.
  const stream = async (worker: number) => {
    for (let i = 0; !stopped; i++) {
      const collector = collectors[(worker + i) % 2]!;
      const messages = Array.from({ length: i % 3 == 2 ? 50 : 1 }, (_, n) => `w${worker}-${i}-${n}`);
      messages.forEach((message) => attempted.add(message));
      try {
        const response = await post(collector.url, '/api/error-reports', messages.map((message) => ({ error_type: 'js', error_message: message })));
        if (response.status == 202) acknowledged.push(...messages);
        else throw new Error(`${response.status} ${await response.text()}`);
      } catch (error) {
        // Refused connections or resets from the killed process are not acknowledgements; anything else is a failure.
        if (!/fetch failed/.test(String(error))) throw error;
        refused++;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
  };
  const acknowledgedBy = (count: number) =>
    new Promise<void>((resolve, reject) => {
      const deadline = Date.now() + 20_000;
      const poll = setInterval(() => {
        if (acknowledged.length >= count) resolve();
        else if (Date.now() > deadline) reject(new Error(`only ${acknowledged.length} of ${count} reports acknowledged in 20 s`));
        else return;
        clearInterval(poll);
      }, 10);
    });
  const workers = Promise.all(Array.from({ length: 6 }, (_, worker) => stream(worker)));
  // A worker's failure (a 5xx, say) ends the test at once.
  const until = (count: number) => Promise.race([acknowledgedBy(count), workers]);
  try {
    await until(500);
    await collectors[0]!.stop('SIGKILL');
    await until(acknowledged.length + 300);
    collectors[0] = await start();
    await until(acknowledged.length + 300);
  } finally {
    stopped = true;
  }
  await workers;
  expect(refused).toBeGreaterThan(0); // the kill did interrupt the stream

  const stored = exportRecords(schema.url, 'default', 'errors').map((record) => record.error_message as string);
  const counts = new Map<string, number>();
  for (const message of stored) counts.set(message, (counts.get(message) ?? 0) + 1);
  expect(acknowledged.filter((message) => counts.get(message) !== 1)).toEqual([]);
  expect([...counts].filter(([message, count]) => count > 1 || !attempted.has(message))).toEqual([]);
  expect(new Set(acknowledged).size).toBe(acknowledged.length);
  // The summary's aggregates count exactly what is stored.
  const apiKey = (JSON.parse(runCli(schema.url, 'key', 'create', '--json')) as { api_key: string }).api_key;
  const summary = (await (
    await fetch(`${collectors[1]!.url}/api/v1/sites/default/summary?limit=1000`, { headers: { authorization: `Bearer ${apiKey}` } })
  ).json()) as { errors: Array<{ reports: number }> };
  expect(summary.errors.reduce((sum, group) => sum + group.reports, 0)).toBe(stored.length);
  expect(await Promise.all(collectors.map((collector) => collector.stop()))).toEqual([0, 0]);
}, 60_000);

test('upserts of one session at two collectors at once merge into one row, each metric its latest value; a site added by the CLI works at once', async () => {
  const [one, two] = await Promise.all([start(), start()]);
  const site = (JSON.parse(runCli(schema.url, 'site', 'add', '--origin', 'https://shop.example', '--json')) as { site_key: string }).site_key;
  const path = `/api/performance-sessions/${site}`;
  const answers = await Promise.all(
    Array.from({ length: 40 }, (_, i) =>
      i % 2
        ? post(one.url, path, { session_id: 'shared', page_url: 'https://shop.example/', metrics: { LCP: { value: 1000 + i } } }, 'PUT')
        : post(two.url, path, { session_id: 'shared', metrics: { CLS: { value: i / 100 }, [`M${String.fromCharCode(65 + (i % 20))}`]: { value: i } } }),
    ),
  );
  expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 202));
  // Then one after the other: the later write wins, whichever process took it.
  expect((await post(one.url, path, { session_id: 'shared', metrics: { LCP: { value: 2100 } } })).status).toBe(202);
  expect((await post(two.url, path, { session_id: 'shared', metrics: { LCP: { value: 2200 }, CLS: { value: 0.5 } } })).status).toBe(202);
  const sessions = exportRecords(schema.url, site, 'performance');
  expect(sessions).toHaveLength(1);
  const metrics = sessions[0]!.metrics as Record<string, { value: number }>;
  expect(metrics.LCP).toEqual({ value: 2200 });
  expect(metrics.CLS).toEqual({ value: 0.5 });
  // Every metric one of the writes set is there: none lost to the other process's update.
  expect(Object.keys(metrics).sort()).toEqual(['CLS', 'LCP', ...Array.from({ length: 10 }, (_, n) => `M${String.fromCharCode(65 + 2 * n)}`)].sort());
  expect(sessions[0]).toMatchObject({ session_id: 'shared', page_url: 'https://shop.example/' });
}, 30_000);
