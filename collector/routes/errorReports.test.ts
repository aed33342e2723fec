import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createTestCollector } from '../testing/testCollector';

const report = {
  error_type: 'javascript_error',
  error_message: 'x is not defined',
  error_name: 'ReferenceError',
  stack: 'ReferenceError: x is not defined\n    at checkout (https://shop.example/app.js:10:5)',
  source_url: 'https://shop.example/app.js',
  line: 10,
  column: 5,
  page_url: 'https://shop.example/cart',
  timestamp: 1795000000000,
  session_id: 'abc',
  count: 2,
};

describe('error reports', () => {
  let collector: ReturnType<typeof createTestCollector>;
  let siteKey: string;
  const shop = 'https://shop.example';

  beforeEach(async () => {
    collector = createTestCollector();
    siteKey = await collector.addSite([shop], 'Shop');
  });
  afterEach(async () => {
    expect(collector.errors).toEqual([]);
    await collector.close();
  });

  const stored = () => collector.stored('errors', siteKey);

  test('the spec-shaped POST /api/error-reports stores under the default site and answers 202', async () => {
    const response = await collector.post('/api/error-reports', { error_type: 'php_error', error_message: 'boom' });
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ status: 'accepted', accepted: 1 });
    const [record] = await collector.stored('errors', 'default');
    expect(record).toMatchObject({ site_key: 'default', error_type: 'php_error', error_message: 'boom' });
  });

  test('a full report from an allowed origin is stored with every field, and CORS lets the page read the answer', async () => {
    const response = await collector.post(`/api/error-reports/${siteKey}`, report, { origin: shop, 'user-agent': 'UA/1' });
    expect(response.status).toBe(202);
    expect(response.headers.get('access-control-allow-origin')).toBe(shop);
    expect(response.headers.get('vary')).toBe('Origin');
    const records = await stored();
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ ...report, site_key: siteKey, user_agent: 'UA/1' });
    expect(Date.parse(records[0]!.received_at)).toBeGreaterThan(Date.now() - 60_000);
  });

  test('an array of reports is stored whole; sendBeacon text/plain bodies are accepted', async () => {
    const batch = [report, { error_type: 'manual', error_message: 'second' }];
    const response = await collector.post(`/api/error-reports/${siteKey}`, batch, {
      'content-type': 'text/plain;charset=UTF-8',
    });
    expect(await response.json()).toEqual({ status: 'accepted', accepted: 2 });
    expect((await stored()).map((record) => record.error_message)).toEqual(['x is not defined', 'second']);
  });

  test.each([
    ['one report', 'application/json'],
    ['one report', 'text/plain;charset=UTF-8'],
    ['an array', 'application/json'],
    ['an array', 'text/plain;charset=UTF-8'],
  ])('%s as %s is stored', async (shape, type) => {
    const body = shape == 'an array' ? [report, report] : report;
    const response = await collector.post(`/api/error-reports/${siteKey}`, body, { 'content-type': type, origin: shop });
    expect(response.status).toBe(202);
    expect(await stored()).toHaveLength(shape == 'an array' ? 2 : 1);
  });

  test('unknown fields are kept in extra; prototype keys are harmless', async () => {
    const body = `{"error_type":"js","error_message":"m","build":"1.2.3","__proto__":{"polluted":true}}`;
    expect((await collector.post(`/api/error-reports/${siteKey}`, body)).status).toBe(202);
    const [record] = await stored();
    expect(record!.extra).toEqual({ build: '1.2.3' });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test('over-long strings are cut to their bound, not refused', async () => {
    await collector.post(`/api/error-reports/${siteKey}`, { error_type: 'js', error_message: 'm'.repeat(5000) });
    expect((await stored())[0]!.error_message).toHaveLength(2000);
  });

  test('the preflight answers an allowed origin with the methods and headers it may use', async () => {
    const response = await collector.request(`/api/error-reports/${siteKey}`, {
      method: 'OPTIONS',
      headers: { origin: shop, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(shop);
    expect(response.headers.get('access-control-allow-methods')).toBe('POST');
    expect(response.headers.get('access-control-allow-headers')).toBe('Content-Type');
    expect(Number(response.headers.get('access-control-max-age'))).toBeGreaterThan(0);
  });

  describe("the collector's own origin (the dashboard's connectivity check, spec section 5.2)", () => {
    // createTestCollector's public URL.
    const own = 'http://127.0.0.1:8787';
    const check = { error_type: 'connectivity_check', error_message: 'sitebeacon check from the dashboard' };

    test('may send connectivity checks to any site, preflight included, and read the answer; they are stored', async () => {
      const preflight = await collector.request(`/api/error-reports/${siteKey}`, {
        method: 'OPTIONS',
        headers: { origin: own, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe(own);
      const response = await collector.post(`/api/error-reports/${siteKey}`, [check, check], { origin: own });
      expect(response.status).toBe(202);
      expect(response.headers.get('access-control-allow-origin')).toBe(own);
      expect((await stored()).map((record) => record.error_type)).toEqual(['connectivity_check', 'connectivity_check']);
    });

    test('may send nothing else: 403 origin_not_allowed that the dashboard can read, nothing stored', async () => {
      const response = await collector.post(`/api/error-reports/${siteKey}`, [check, report], { origin: own });
      expect(response.status).toBe(403);
      expect(response.headers.get('access-control-allow-origin')).toBe(own);
      expect(await response.json()).toMatchObject({ error: { code: 'origin_not_allowed' } });
      expect(await stored()).toEqual([]);
    });

    test('is no site origin on the other collection routes, and another origin may not send checks', async () => {
      const csp = { 'csp-report': { 'document-uri': 'http://127.0.0.1:8787/sites', 'violated-directive': 'img-src', 'blocked-uri': 'https://x.example/a.png' } };
      expect((await collector.post(`/api/csp-reports/${siteKey}`, csp, { origin: own })).status).toBe(403);
      expect((await collector.post(`/api/performance-sessions/${siteKey}`, { session_id: 's', metrics: {} }, { origin: own })).status).toBe(403);
      const preflight = await collector.request(`/api/performance-sessions/${siteKey}`, { method: 'OPTIONS', headers: { origin: own, 'access-control-request-method': 'POST' } });
      expect(preflight.status).toBe(403);
      const foreign = await collector.post(`/api/error-reports/${siteKey}`, check, { origin: 'https://evil.example' });
      expect(foreign.status).toBe(403);
      expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
      expect(await stored()).toEqual([]);
    });
  });

  test("causes are stored with the report and returned with its group's latest report; the engine's prefix is gone before grouping", async () => {
    const causes = [
      { error_name: 'TypeError', error_message: 'fetch failed', stack: 'TypeError: fetch failed\n    at load (https://shop.example/app.js:3:9)' },
      { error_name: 'Error', error_message: '<img src=x onerror=alert(1)>', aggregate: true },
    ];
    const chromium = { error_type: 'javascript_error', error_message: 'Uncaught stringError', source_url: 'https://shop.example/app.js', causes };
    const firefox = { error_type: 'javascript_error', error_message: 'uncaught exception: stringError', source_url: 'https://shop.example/app.js' };
    expect((await collector.post(`/api/error-reports/${siteKey}`, [chromium, firefox], { origin: shop })).status).toBe(202);
    const records = await stored();
    expect(records.map((record) => record.error_message)).toEqual(['stringError', 'stringError']);
    expect(records[0]!.fingerprint).toBe(records[1]!.fingerprint);
    expect(records[0]!.causes).toEqual(causes);
    expect(records[0]).not.toHaveProperty('extra');
    expect(records[1]).not.toHaveProperty('causes');
    // The latest of the group is the Firefox report, without causes; a group of its own has them.
    await collector.post(`/api/error-reports/${siteKey}`, { ...chromium, error_message: 'Uncaught other' }, { origin: shop });
    const other = (await stored()).at(-1)!;
    const detail = await collector.request(`/api/v1/sites/${siteKey}/error-groups/${other.fingerprint}`, {
      headers: { authorization: `Bearer ${await collector.apiKey(siteKey)}` },
    });
    expect(detail.status).toBe(200);
    const { latest } = (await detail.json()) as { latest: { error_message: string; causes: unknown } };
    expect(latest).toMatchObject({ error_message: 'other', causes });
  });

  test.each([
    ['more than 5 causes', Array(6).fill({ error_message: 'c' }), /causes: causes holds at most 5 causes/],
    ['causes that are not an array', { error_message: 'c' }, /causes: causes must be an array/],
    ['a cause that is not an object', ['c'], /causes\.0: each cause must be an object with an error_message/],
    ['a cause without a message', [{ error_name: 'TypeError' }], /causes\.0\.error_message: /],
    ['a cause whose aggregate is not a boolean', [{ error_message: 'c', aggregate: 'yes' }], /causes\.0\.aggregate: aggregate must be true or false/],
  ])('%s: 400 invalid_report saying so', async (_name, causes, message) => {
    const response = await collector.post(`/api/error-reports/${siteKey}`, { error_type: 'js', error_message: 'm', causes });
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe('invalid_report');
    expect(error.message).toMatch(message);
    expect(await stored()).toEqual([]);
  });

  const bad: Array<[string, () => Promise<Response>, number, string]> = [
    ['invalid JSON', () => collector.post(`/api/error-reports/${siteKey}`, '{"error_type":'), 400, 'invalid_json'],
    ['an empty body', () => collector.post(`/api/error-reports/${siteKey}`, ''), 400, 'invalid_json'],
    [
      'invalid UTF-8',
      () =>
        collector.request(`/api/error-reports/${siteKey}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
        }),
      400,
      'invalid_json',
    ],
    ['a missing error_message', () => collector.post(`/api/error-reports/${siteKey}`, { error_type: 'js' }), 400, 'invalid_report'],
    ['a numeric error_type', () => collector.post(`/api/error-reports/${siteKey}`, { error_type: 1, error_message: 'm' }), 400, 'invalid_report'],
    ['a JSON string', () => collector.post(`/api/error-reports/${siteKey}`, '"hello"'), 400, 'invalid_report'],
    ['an empty array', () => collector.post(`/api/error-reports/${siteKey}`, []), 400, 'invalid_report'],
    ['an array of 51', () => collector.post(`/api/error-reports/${siteKey}`, Array(51).fill(report)), 400, 'invalid_report'],
    ['a bad report inside an array', () => collector.post(`/api/error-reports/${siteKey}`, [report, { error_type: 'js' }]), 400, 'invalid_report'],
    ['an unknown site', () => collector.post('/api/error-reports/no-such-site', report), 404, 'unknown_site'],
    ['a foreign origin', () => collector.post(`/api/error-reports/${siteKey}`, report, { origin: 'https://evil.example' }), 403, 'origin_not_allowed'],
    ['a form post', () => collector.post(`/api/error-reports/${siteKey}`, 'a=b', { 'content-type': 'application/x-www-form-urlencoded' }), 415, 'unsupported_media_type'],
    ['a body over 64 KiB', () => collector.post(`/api/error-reports/${siteKey}`, { ...report, stack: 's'.repeat(70_000) }), 413, 'payload_too_large'],
    [
      'a chunked body over 64 KiB',
      () =>
        collector.request(`/api/error-reports/${siteKey}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: new ReadableStream({
            start(controller) {
              for (let i = 0; i < 20; i++) controller.enqueue(new TextEncoder().encode(' '.repeat(4096)));
              controller.close();
            },
          }),
          duplex: 'half',
        } as RequestInit),
      413,
      'payload_too_large',
    ],
    ['a GET', () => collector.request(`/api/error-reports/${siteKey}`), 405, 'method_not_allowed'],
    ['a preflight from a foreign origin', () => collector.request(`/api/error-reports/${siteKey}`, { method: 'OPTIONS', headers: { origin: 'https://evil.example' } }), 403, 'origin_not_allowed'],
  ];

  test.each(bad)('%s is answered with its status and code, and nothing is stored', async (_name, send, status, code) => {
    const response = await send();
    expect(response.status).toBe(status);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe(code);
    expect(body.error.message.length).toBeGreaterThan(0);
    expect(await stored()).toEqual([]);
    expect(await collector.stored('errors', 'default')).toEqual([]);
  });

  test('a browser origin on the unkeyed endpoint must be allowed for the default site', async () => {
    const response = await collector.post('/api/error-reports', report, { origin: shop });
    expect(response.status).toBe(403);
  });

  test('an unknown path is a JSON 404', async () => {
    const response = await collector.request('/api/nothing-here');
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { code: 'not_found' } });
  });
});
