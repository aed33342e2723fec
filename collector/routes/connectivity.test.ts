import { afterEach, describe, expect, test } from 'vitest';
import { createTestCollector } from '../testing/testCollector';

describe('GET /api/test-connectivity', () => {
  let collector: ReturnType<typeof createTestCollector>;
  afterEach(() => collector.close());

  test('answers 200 {"status":"success"} without credentials and stores nothing', async () => {
    collector = createTestCollector();
    const response = await collector.request('/api/test-connectivity');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({ status: 'success' });
    expect(await collector.stored('errors', 'default')).toEqual([]);
  });

  test('any origin may read it: it proves connectivity only', async () => {
    collector = createTestCollector();
    const response = await collector.request('/api/test-connectivity', { headers: { origin: 'https://wp.example' } });
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
  });

  test('a POST is 405 with Allow', async () => {
    collector = createTestCollector();
    const response = await collector.request('/api/test-connectivity', { method: 'POST' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD');
    expect(await response.json()).toMatchObject({ error: { code: 'method_not_allowed' } });
  });
});

describe('request log', () => {
  let collector: ReturnType<typeof createTestCollector>;
  afterEach(() => collector.close());

  test('one structured entry per request, errors included', async () => {
    collector = createTestCollector();
    await collector.request('/api/test-connectivity');
    await collector.post('/api/error-reports', '{oops');
    expect(collector.requestLog).toEqual([
      expect.objectContaining({ method: 'GET', path: '/api/test-connectivity', status: 200, ms: expect.any(Number), ip: expect.any(String) }),
      expect.objectContaining({ method: 'POST', path: '/api/error-reports', status: 400 }),
    ]);
    expect(Date.parse(collector.requestLog[0]!.time)).not.toBeNaN();
  });
});
