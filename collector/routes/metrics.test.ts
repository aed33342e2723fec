import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createCollector } from '../app';
import { hashApiKey, newApiKey } from '../core/keys';
import { parsePrometheusText, sampleValue, type ParsedExposition } from '../testing/parsePrometheusText';
import { createTestCollector } from '../testing/testCollector';

const report = { error_type: 'javascript_error', error_message: 'x is not defined', page_url: 'https://shop.example/cart' };

describe('GET /metrics', () => {
  let collector: ReturnType<typeof createTestCollector>;
  let siteKey: string;
  let installationKey: string;

  beforeEach(async () => {
    collector = createTestCollector();
    siteKey = await collector.addSite(['https://shop.example'], 'Shop');
    installationKey = await collector.apiKey();
  });
  afterEach(async () => {
    expect(collector.errors).toEqual([]);
    await collector.close();
  });

  const scrape = async (key = installationKey): Promise<ParsedExposition> => {
    const response = await collector.request('/metrics', { headers: { authorization: `Bearer ${key}` } });
    expect(response.status).toBe(200);
    return parsePrometheusText(await response.text());
  };

  test('answers 401 without a key and with an unknown one', async () => {
    expect((await collector.request('/metrics')).status).toBe(401);
    const unknown = await collector.request('/metrics', { headers: { authorization: `Bearer ${newApiKey()}` } });
    expect(unknown.status).toBe(401);
    expect(await unknown.json()).toMatchObject({ error: { code: 'unauthorized' } });
  });

  test("answers 403 to a site's key: metrics need an installation key", async () => {
    const response = await collector.request('/metrics', { headers: { authorization: `Bearer ${await collector.apiKey(siteKey)}` } });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ error: { code: 'forbidden' } });
  });

  test('answers an installation key 200 in the text format 0.0.4, every family with HELP and TYPE, names prefixed', async () => {
    const response = await collector.request('/metrics', { headers: { authorization: `Bearer ${installationKey}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-store');
    const parsed = parsePrometheusText(await response.text());
    expect([...parsed.families.keys()].sort()).toEqual([
      'process_resident_memory_bytes',
      'process_start_time_seconds',
      'sitebeacon_commit_seconds',
      'sitebeacon_database_up',
      'sitebeacon_ingest_requests_total',
      'sitebeacon_reports_accepted_total',
      'sitebeacon_sign_in_failures_total',
      'sitebeacon_write_failures_total',
      'sitebeacon_write_queue_depth',
    ]);
    for (const family of parsed.families.values()) expect(family.help && family.type).toBeTruthy();
    expect(sampleValue(parsed, 'process_resident_memory_bytes')).toBeGreaterThan(1 << 20);
    expect(sampleValue(parsed, 'process_start_time_seconds')).toBeCloseTo(Date.now() / 1000 - process.uptime(), -1);
    expect(sampleValue(parsed, 'sitebeacon_database_up')).toBe(1);
    expect(sampleValue(parsed, 'sitebeacon_commit_seconds_bucket', { le: '+Inf' })).toBe(0);
  });

  test('counts N error reports accepted and an invalid body refused with 400, and times the N commits', async () => {
    const n = 3;
    for (let i = 0; i < n; i++) expect((await collector.post(`/api/error-reports/${siteKey}`, report)).status).toBe(202);
    expect((await collector.post(`/api/error-reports/${siteKey}`, { error_type: 42 })).status).toBe(400);
    const parsed = await scrape();
    expect(sampleValue(parsed, 'sitebeacon_ingest_requests_total', { kind: 'error', status: '202' })).toBe(n);
    expect(sampleValue(parsed, 'sitebeacon_ingest_requests_total', { kind: 'error', status: '400' })).toBe(1);
    expect(sampleValue(parsed, 'sitebeacon_reports_accepted_total', { kind: 'error' })).toBe(n);
    expect(sampleValue(parsed, 'sitebeacon_reports_accepted_total', { kind: 'csp' })).toBe(0);
    expect(sampleValue(parsed, 'sitebeacon_commit_seconds_count')).toBe(n);
    expect(sampleValue(parsed, 'sitebeacon_commit_seconds_bucket', { le: '+Inf' })).toBe(n);
    expect(sampleValue(parsed, 'sitebeacon_commit_seconds_sum')).toBeGreaterThan(0);
    expect(sampleValue(parsed, 'sitebeacon_write_queue_depth')).toBe(0);
    expect(sampleValue(parsed, 'sitebeacon_write_failures_total')).toBe(0);
    expect(sampleValue(parsed, 'sitebeacon_database_up')).toBe(1);
  });

  test('counts a batch by its reports, refusals before the handler by status, and the other kinds apart', async () => {
    await collector.post(`/api/error-reports/${siteKey}`, [report, report]);
    await collector.post(`/api/error-reports/${siteKey}`, report, { origin: 'https://elsewhere.example' });
    await collector.post('/api/error-reports/no-such-site', report);
    await collector.post(`/api/performance-sessions/${siteKey}`, { session_id: 's1', page_url: 'https://shop.example/', metrics: { LCP: { value: 1200, rating: 'good' } } });
    const parsed = await scrape();
    expect(sampleValue(parsed, 'sitebeacon_reports_accepted_total', { kind: 'error' })).toBe(2);
    expect(sampleValue(parsed, 'sitebeacon_ingest_requests_total', { kind: 'error', status: '403' })).toBe(1);
    expect(sampleValue(parsed, 'sitebeacon_ingest_requests_total', { kind: 'error', status: '404' })).toBe(1);
    expect(sampleValue(parsed, 'sitebeacon_ingest_requests_total', { kind: 'performance', status: '202' })).toBe(1);
    expect(sampleValue(parsed, 'sitebeacon_reports_accepted_total', { kind: 'performance' })).toBe(1);
  });

  test('counts failed sign-ins by status', async () => {
    await collector.addUser('ops@shop.example', 'correct horse battery staple');
    const response = await collector.post('/api/v1/session', { email: 'ops@shop.example', password: 'wrong' }, { origin: 'http://collector.test' });
    expect(response.status).toBe(401);
    const parsed = await scrape();
    expect(sampleValue(parsed, 'sitebeacon_sign_in_failures_total', { status: '401' })).toBe(1);
    expect(sampleValue(parsed, 'sitebeacon_sign_in_failures_total', { status: '429' })).toBe(0);
  });

  test('each collector counts its own reports (no state shared between apps of one process)', async () => {
    const other = createTestCollector();
    try {
      const otherSite = await other.addSite([], 'Other');
      await other.post(`/api/error-reports/${otherSite}`, report);
      await collector.post(`/api/error-reports/${siteKey}`, [report, report]);
      expect(sampleValue(await scrape(), 'sitebeacon_reports_accepted_total', { kind: 'error' })).toBe(2);
    } finally {
      await other.close();
    }
  });
});

describe('GET /metrics when the store fails', () => {
  const open = async (failWrites: boolean, failHealth: boolean) => {
    const collector = createTestCollector();
    const { store } = collector;
    const logged: unknown[] = [];
    const app = createCollector({
      store: {
        ...store,
        errors: { ...store.errors, insert: failWrites ? async () => Promise.reject(new Error('disk I/O error')) : store.errors.insert },
        checkWritable: failHealth ? async () => Promise.reject(new Error('attempt to write a readonly database')) : store.checkWritable,
      },
      beaconFile: fileURLToPath(new URL('../../dist/beacon.min.js', import.meta.url)),
      links: { appUrl: () => 'http://127.0.0.1:8787' },
      logError: (error) => logged.push(error),
    });
    const key = newApiKey();
    await store.apiKeys.create({ key_hash: hashApiKey(key), name: 'prometheus' });
    const scrape = async () =>
      parsePrometheusText(await (await app.fetch(new Request('http://collector.test/metrics', { headers: { authorization: `Bearer ${key}` } }))).text());
    const post = (path: string) =>
      app.fetch(new Request(`http://collector.test${path}`, { method: 'POST', body: JSON.stringify(report), headers: { 'content-type': 'application/json' } }));
    return { collector, app, logged, scrape, post, siteKey: await collector.addSite([], 'Shop') };
  };

  test('a write that rejects is a failure, answered 500, and the database counts as down', async () => {
    const { collector, logged, scrape, post, siteKey } = await open(true, false);
    try {
      expect((await post(`/api/error-reports/${siteKey}`)).status).toBe(500);
      const parsed = await scrape();
      expect(sampleValue(parsed, 'sitebeacon_write_failures_total')).toBe(1);
      expect(sampleValue(parsed, 'sitebeacon_ingest_requests_total', { kind: 'error', status: '500' })).toBe(1);
      expect(sampleValue(parsed, 'sitebeacon_database_up')).toBe(0);
      expect(sampleValue(parsed, 'sitebeacon_commit_seconds_count')).toBe(0);
      expect(sampleValue(parsed, 'sitebeacon_write_queue_depth')).toBe(0);
      expect(logged).toHaveLength(1);
      // No write since: the next scrape asks the health check, which passes.
      expect(sampleValue(await scrape(), 'sitebeacon_database_up')).toBe(1);
    } finally {
      await collector.close();
    }
  });

  test('without writes, a scrape runs the health check: a store that cannot write is down', async () => {
    const { collector, scrape } = await open(false, true);
    try {
      expect(sampleValue(await scrape(), 'sitebeacon_database_up')).toBe(0);
    } finally {
      await collector.close();
    }
  });
});
