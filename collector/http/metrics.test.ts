import { expect, test } from 'vitest';
import { UnknownSiteError } from '../store/unknownSiteError';
import { parsePrometheusText, sampleValue } from '../testing/parsePrometheusText';
import { createMetrics } from './metrics';
import { renderPrometheusText } from './prometheusText';

const scrape = async (metrics: ReturnType<typeof createMetrics>) => parsePrometheusText(renderPrometheusText(await metrics.collect()));

test('a write in flight is counted in the queue depth until it settles', async () => {
  const metrics = createMetrics({ checkDatabase: async () => {} });
  let commit!: (value: number) => void;
  const write = metrics.storeWrite(() => new Promise<number>((resolve) => (commit = resolve)));
  expect(sampleValue(await scrape(metrics), 'sitebeacon_write_queue_depth')).toBe(1);
  commit(3);
  expect(await write).toBe(3);
  const parsed = await scrape(metrics);
  expect(sampleValue(parsed, 'sitebeacon_write_queue_depth')).toBe(0);
  expect(sampleValue(parsed, 'sitebeacon_commit_seconds_count')).toBe(1);
});

test('a write refused for a rotated site key is no failure: the database answered', async () => {
  const metrics = createMetrics({ checkDatabase: async () => Promise.reject(new Error('not asked')) });
  await expect(metrics.storeWrite(() => Promise.reject(new UnknownSiteError('old')))).rejects.toBeInstanceOf(UnknownSiteError);
  const parsed = await scrape(metrics);
  expect(sampleValue(parsed, 'sitebeacon_write_failures_total')).toBe(0);
  expect(sampleValue(parsed, 'sitebeacon_database_up')).toBe(1);
});

test('the database is probed only when no write has settled since the last collect', async () => {
  let probes = 0;
  const metrics = createMetrics({ checkDatabase: async () => void probes++ });
  await metrics.storeWrite(async () => 1);
  await scrape(metrics);
  expect(probes).toBe(0);
  await scrape(metrics);
  expect(probes).toBe(1);
});

test('answers count by kind and status; sign-in counts only 401 and 429; accepted reports come from 2xx bodies', async () => {
  const metrics = createMetrics({ checkDatabase: async () => {} });
  metrics.countAnswer('csp', 202, { status: 'accepted', accepted: 4 });
  metrics.countAnswer('csp', 204, null);
  metrics.countAnswer('csp', 413);
  metrics.countAnswer('sign_in', 204, null);
  metrics.countAnswer('sign_in', 429);
  const parsed = await scrape(metrics);
  expect(sampleValue(parsed, 'sitebeacon_ingest_requests_total', { kind: 'csp', status: '202' })).toBe(1);
  expect(sampleValue(parsed, 'sitebeacon_ingest_requests_total', { kind: 'csp', status: '204' })).toBe(1);
  expect(sampleValue(parsed, 'sitebeacon_ingest_requests_total', { kind: 'csp', status: '413' })).toBe(1);
  expect(sampleValue(parsed, 'sitebeacon_reports_accepted_total', { kind: 'csp' })).toBe(4);
  expect(sampleValue(parsed, 'sitebeacon_sign_in_failures_total', { status: '429' })).toBe(1);
  expect(sampleValue(parsed, 'sitebeacon_sign_in_failures_total', { status: '401' })).toBe(0);
});
