// Field names from Object.prototype in reports (docs/hostile-input.md, "Names from Object.prototype"): never a crash, never a read from
// a prototype, never a legitimate field silently lost. valibot's object and record schemas skip
// `__proto__`, `constructor` and `prototype` keys; these tests prove the collector puts the last
// two in `extra` (free fields; `__proto__` is never a client's field, only pollution, and stays
// out) or refuses them with a clear 400 (metric names).
import { afterEach, beforeEach, expect, test } from 'vitest';
import { createTestCollector } from './testing/testCollector';

let collector: ReturnType<typeof createTestCollector>;
let site: string;
const origin = { origin: 'https://shop.example' };

beforeEach(async () => {
  collector = createTestCollector();
  site = await collector.addSite(['https://shop.example']);
});
afterEach(async () => {
  expect(collector.errors).toEqual([]);
  await collector.close();
});

test('an error report\'s fields named constructor, prototype, toString... are kept in extra; __proto__ is not read', async () => {
  const body = '{"error_type":"javascript_error","error_message":"m","constructor":"MyError","__proto__":{"stack":"forged"},'
    + '"prototype":1,"toString":"a","hasOwnProperty":"b","valueOf":"c"}';
  const response = await collector.post(`/api/error-reports/${site}`, body, origin);
  expect(response.status).toBe(202);
  const [stored] = await collector.stored('errors', site, { limit: 10 });
  expect(stored).toMatchObject({ error_type: 'javascript_error', error_message: 'm' });
  expect(stored!.stack).toBeUndefined();
  expect(JSON.parse(JSON.stringify(stored!.extra))).toEqual({
    constructor: 'MyError', prototype: 1, toString: 'a', hasOwnProperty: 'b', valueOf: 'c',
  });
});

test('a CSP report\'s fields are never read from a __proto__ member; constructor and toString are kept in extra', async () => {
  const forged = '{"document-uri":"https://evil.example/","violated-directive":"script-src","blocked-uri":"https://evil.example/x.js"}';
  // Only the forged prototype carries the required fields: the report is refused, not stored as evil.
  const refused = await collector.post(`/api/csp-reports/${site}`, `{"csp-report":{"__proto__":${forged}}}`, origin);
  expect(refused.status).toBe(400);
  expect(await collector.stored('csp', site, { limit: 10 })).toEqual([]);

  const csp2 = `{"csp-report":{"document-uri":"https://shop.example/","violated-directive":"img-src","blocked-uri":"https://cdn.example/x.png",`
    + `"__proto__":${forged},"constructor":"x","toString":"y"}}`;
  expect((await collector.post(`/api/csp-reports/${site}`, csp2, origin)).status).toBe(202);
  const reporting = `[{"type":"csp-violation","url":"https://shop.example/","body":{"effectiveDirective":"img-src","blockedURL":"https://cdn.example/y.png",`
    + `"constructor":"z","__proto__":${forged}}}]`;
  expect((await collector.post(`/api/csp-reports/${site}`, reporting, { ...origin, 'content-type': 'application/reports+json' })).status).toBe(202);

  const stored = await collector.stored('csp', site, { limit: 10 });
  expect(stored.map(({ document_uri, blocked_uri }) => `${document_uri} ${blocked_uri}`).sort()).toEqual([
    'https://shop.example/ https://cdn.example/x.png',
    'https://shop.example/ https://cdn.example/y.png',
  ]);
  const extras = stored.map((report) => JSON.parse(JSON.stringify(report.extra)));
  expect(extras).toContainEqual({ constructor: 'x', toString: 'y' });
  expect(extras).toContainEqual({ constructor: 'z' });
});

test('a metric named constructor or __proto__ is refused with a clear 400; one named toString is a metric like any other', async () => {
  for (const name of ['constructor', '__proto__', 'prototype']) {
    const body = `{"session_id":"s1","metrics":{"${name}":{"value":1},"LCP":{"value":2}}}`;
    const refused = await collector.post(`/api/performance-sessions/${site}`, body, origin);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ error: { code: 'invalid_report', message: expect.stringContaining(`"${name}" is not a metric name`) } });
  }

  const body = '{"session_id":"s2","constructor":"kept","metrics":{"toString":{"value":2},"LCP":{"value":3}}}';
  expect((await collector.post(`/api/performance-sessions/${site}`, body, origin)).status).toBe(202);
  const [session] = await collector.stored('performance', site, { limit: 10 });
  expect(session).toMatchObject({ session_id: 's2', metrics: { toString: { value: 2 }, LCP: { value: 3 } } });
  expect(JSON.parse(JSON.stringify(session!.extra))).toEqual({ constructor: 'kept' });
  // The summary reads metric names through its own table: a stored `toString` does not break it.
  expect((await collector.request(`/api/v1/sites/${site}/summary`, { headers: { authorization: `Bearer ${await collector.apiKey(site)}` } })).status).toBe(200);
});
