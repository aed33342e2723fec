// `serve --retention-days N` on both stores (docs/retention.md): old reports and sessions go in small batches
// while ingest keeps answering 2xx. Needs `npm run build` (the collector runs as dist/cli.js).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { DEFAULT_SITE_KEY } from './core/records';
import { openStore } from './store/openStore';
import { seedStore } from './testing/seed';
import { exportRecords, runCli, spawnCollector, type CollectorProcess } from './testing/spawnCollector';
import { usePostgresDatabase } from './testing/testDatabase';

const DAY = 86_400_000;
const OLD_REPORTS = 20_000;
const database = usePostgresDatabase('retention');
const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const locations = {
  SQLite: async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sitebeacon-retention-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    return join(dir, 'sitebeacon.db');
  },
  PostgreSQL: async () => {
    const schema = await database.schema('retention');
    cleanups.push(() => schema.drop());
    return schema.url;
  },
};

describe.each(Object.entries(locations))('serve --retention-days on %s', (_name, makeLocation) => {
  test('deletes what is older in batches while ingest answers 2xx, and the summary counts what remains', async () => {
    const location = await makeLocation();
    const now = Date.now();
    const store = await openStore(location);
    const seed = seedStore(store);
    const stack = 'TypeError: x\n    at checkout (https://shop.example/app.js:10:5)';
    for (let done = 0; done < OLD_REPORTS; done += 1000) {
      const reports = Array.from({ length: 1000 }, (_, i) => ({ error_type: 'js', error_message: `old ${done + i}`, stack }));
      await seed.insertErrors(DEFAULT_SITE_KEY, reports, now - 3 * DAY + done);
    }
    await seed.insertCsp(DEFAULT_SITE_KEY, [{ report_type: 'csp-violation', effective_directive: 'img-src', blocked_uri: 'https://old.example/x.png' }], now - 3 * DAY);
    await seed.upsertSession(DEFAULT_SITE_KEY, { session_id: 'old', metrics: { LCP: { value: 9000 } } }, now - 2 * DAY);
    await seed.insertErrors(DEFAULT_SITE_KEY, [{ error_type: 'js', error_message: 'recent', stack }], now - DAY / 2);
    await seed.upsertSession(DEFAULT_SITE_KEY, { session_id: 'recent', metrics: { LCP: { value: 1200 } } }, now - DAY / 2);
    await store.close();

    const collector: CollectorProcess = await spawnCollector({ db: location, args: ['--rate-limit', '0', '--site-rate-limit', '0', '--retention-days', '1'] });
    cleanups.push(() => collector.stop('SIGKILL'));
    const answers: number[] = [];
    let live = 0;
    // Ingest during the deletion: every submission must be answered 2xx.
    const ingest = async () => {
      for (let i = 0; i < 40; i++) {
        const response = await fetch(`${collector.url}/api/error-reports`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ error_type: 'js', error_message: `live ${live++}`, stack }),
        });
        answers.push(response.status);
      }
    };
    const apiKey = (JSON.parse(runCli(location, 'key', 'create', '--json')) as { api_key: string }).api_key;
    const summary = async () =>
      (await (await fetch(`${collector.url}/api/v1/sites/${DEFAULT_SITE_KEY}/summary?limit=1000`, { headers: { authorization: `Bearer ${apiKey}` } })).json()) as {
        errors: Array<{ reports: number; first_seen: string }>;
        csp: unknown[];
        vitals: Record<string, { samples: number; p75: number | null }>;
      };
    const deadline = Date.now() + 60_000;
    await Promise.all([
      ingest(),
      (async () => {
        while ((await summary()).errors.reduce((sum, group) => sum + group.reports, 0) > 1 + live) {
          if (Date.now() > deadline) throw new Error('the old reports were not deleted within 60 s');
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      })(),
    ]);
    expect(answers.filter((status) => status != 202)).toEqual([]);
    const stored = exportRecords(location, DEFAULT_SITE_KEY, 'errors').map((record) => record.error_message as string);
    expect(stored.filter((message) => message.startsWith('old'))).toEqual([]);
    expect(stored.sort()).toEqual(['recent', ...Array.from({ length: 40 }, (_, i) => `live ${i}`)].sort());
    const after = await summary();
    expect(after.errors.reduce((sum, group) => sum + group.reports, 0)).toBe(stored.length);
    // No group remembers a deleted report.
    for (const group of after.errors) expect(Date.parse(group.first_seen)).toBeGreaterThanOrEqual(now - DAY);
    expect(after.csp).toEqual([]);
    expect(after.vitals.LCP).toMatchObject({ samples: 1, p75: 1200 });
    expect(exportRecords(location, DEFAULT_SITE_KEY, 'performance').map((session) => session.session_id)).toEqual(['recent']);
    expect(await collector.stop()).toBe(0);
  }, 120_000);
});

test('--retention-days must be a number of days', async () => {
  const { main } = await import('./main');
  const err: string[] = [];
  const code = await main(['serve', '--retention-days', 'forever', '--db', ':memory:'], { out: () => {}, err: (line) => err.push(line), env: {} });
  expect(code).toBe(2);
  expect(err.join('\n')).toMatch(/--retention-days forever is not a number of days/);
});
