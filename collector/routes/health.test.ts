import Database from 'better-sqlite3';
import { afterEach, expect, test } from 'vitest';
import { createTestCollector } from '../testing/testCollector';

let collector: ReturnType<typeof createTestCollector>;
afterEach(() => collector.close());

test('GET /api/health: 200 {"status":"ok"} without credentials, not cached, and it stores nothing', async () => {
  collector = createTestCollector();
  const response = await collector.request('/api/health');
  expect(response.status).toBe(200);
  expect(response.headers.get('cache-control')).toBe('no-store');
  expect(await response.json()).toEqual({ status: 'ok' });
  const head = await collector.request('/api/health', { method: 'HEAD' });
  expect(head.status).toBe(200);
  expect(await head.text()).toBe('');
  expect(await collector.stored('errors', 'default')).toEqual([]);
});

test('503 {"status":"unhealthy"} while the store cannot write (another process holds the write lock), within a second; 200 again after', async () => {
  collector = createTestCollector();
  const other = new Database(collector.file);
  try {
    other.exec('BEGIN IMMEDIATE');
    const started = performance.now();
    const response = await collector.request('/api/health');
    expect(performance.now() - started).toBeLessThan(1000);
    expect(response.status).toBe(503);
    const body = await response.json();
    expect(body).toEqual({ status: 'unhealthy', reason: 'the store cannot write' });
    // test-connectivity is a pure connectivity answer: it says nothing of the store.
    expect((await collector.request('/api/test-connectivity')).status).toBe(200);
  } finally {
    if (other.inTransaction) other.exec('ROLLBACK');
    other.close();
  }
  expect((await collector.request('/api/health')).status).toBe(200);
  expect(collector.errors).toEqual([]);
});
