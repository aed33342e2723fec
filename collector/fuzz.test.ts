// Property-based fuzzing of every POST/PUT endpoint: arbitrary JSON, arbitrary bytes and arbitrary
// headers never get a 500 nor crash the collector, and every 2xx stored exactly what it
// acknowledged. Fixed seed and bounded runs in CI; `npm run fuzz` runs longer (FUZZ_RUNS).
import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createTestCollector } from './testing/testCollector';
import { parsePolicy, SUGGESTION_LIMITS } from './core/csp';
import { basePolicy, expectWellFormedSuggestion, hostileBlockedUri, hostileDirective, manyDistinctHosts, prototypeName } from './testing/cspArbitraries';

const RUNS = Number(process.env.FUZZ_RUNS || 150);
const SEED = Number(process.env.FUZZ_SEED || 20261122);
const shop = 'https://shop.example';

let collector: ReturnType<typeof createTestCollector>;
let siteKey: string;
let apiKey: string;

beforeAll(async () => {
  collector = createTestCollector();
  siteKey = await collector.addSite([shop]);
  apiKey = await collector.apiKey();
});
afterAll(() => collector.close());

/** How many records each kind holds, over both sites. */
const counts = async () => {
  let errors = 0;
  let csp = 0;
  let sessions = 0;
  for (const key of ['default', siteKey]) {
    errors += (await collector.stored('errors', key, { limit: 1e9 })).length;
    csp += (await collector.stored('csp', key, { limit: 1e9 })).length;
    sessions += (await collector.stored('performance', key, { limit: 1e9 })).length;
  }
  return { errors, csp, sessions };
};

const endpoints = [
  { method: 'POST', path: () => '/api/error-reports', kind: 'errors' },
  { method: 'POST', path: () => `/api/error-reports/${siteKey}`, kind: 'errors' },
  { method: 'POST', path: () => '/api/csp-reports', kind: 'csp' },
  { method: 'POST', path: () => `/api/csp-reports/${siteKey}`, kind: 'csp' },
  { method: 'POST', path: () => `/api/performance-sessions/${siteKey}`, kind: 'sessions' },
  { method: 'PUT', path: () => `/api/performance-sessions/${siteKey}`, kind: 'sessions' },
  { method: 'POST', path: () => '/api/v1/verify-api-key' },
  { method: 'POST', path: () => '/api/v1/wordpress/register' },
  { method: 'POST', path: () => '/api/v1/wordpress/check-in' },
  { method: 'POST', path: () => '/api/v1/wordpress/action-results' },
  { method: 'POST', path: () => `/api/v1/sites/${siteKey}/actions` },
  { method: 'POST', path: () => '/api/v1/csp-projects' },
  { method: 'POST', path: () => '/api/v1/server-agents/register' },
] as const;

const jsonText = fc.oneof(
  fc.jsonValue().map((value) => JSON.stringify(value)),
  // Close to valid: the known fields with arbitrary values, plus arbitrary others.
  fc
    .record(
      {
        error_type: fc.oneof(fc.string(), fc.constant('javascript_error'), fc.anything()),
        error_message: fc.oneof(fc.string(), fc.anything()),
        line: fc.oneof(fc.integer(), fc.double(), fc.string()),
        count: fc.oneof(fc.integer(), fc.constant(1)),
        session_id: fc.string(),
        metrics: fc.dictionary(fc.string({ maxLength: 6 }), fc.record({ value: fc.oneof(fc.double(), fc.nat()), rating: fc.string() })),
        'csp-report': fc.dictionary(
          fc.oneof(
            { arbitrary: fc.constantFrom('document-uri', 'violated-directive', 'effective-directive', 'blocked-uri', 'line-number', 'x'), weight: 5 },
            { arbitrary: prototypeName, weight: 1 },
          ),
          fc.oneof(
            { arbitrary: fc.oneof(fc.string(), fc.integer(), fc.constant('chrome-extension://abc/x.js')), weight: 3 },
            { arbitrary: fc.oneof(hostileDirective, hostileBlockedUri), weight: 2 },
          ),
        ),
        type: fc.constantFrom('csp-violation', 'deprecation', ''),
        body: fc.dictionary(fc.string(), fc.jsonValue()),
        site_url: fc.oneof(fc.webUrl(), fc.string()),
        results: fc.array(fc.record({ action_id: fc.integer(), status: fc.string() })),
        __proto__: fc.jsonValue(),
        // Object.prototype's names as fields (docs/hostile-input.md, "Names from Object.prototype").
        constructor: fc.jsonValue(),
        toString: fc.jsonValue(),
        prototype: fc.jsonValue(),
        hasOwnProperty: fc.jsonValue(),
      },
      { requiredKeys: [] },
    )
    .chain((record) => fc.oneof(fc.constant(JSON.stringify(record)), fc.constant(JSON.stringify([record, record])))),
);
const body = fc.oneof(jsonText.map((text) => new TextEncoder().encode(text)), fc.uint8Array({ maxLength: 2048 }));
const headersWith = (apiKey: string) => fc.record(
  {
    'content-type': fc.oneof(
      fc.constantFrom('application/json', 'text/plain;charset=UTF-8', 'application/csp-report', 'application/reports+json', 'application/x-www-form-urlencoded'),
      fc.string({ maxLength: 40 }).filter((value) => /^[\t\x20-\x7e]*$/.test(value)),
    ),
    origin: fc.oneof(fc.constant(shop), fc.constant('null'), fc.webUrl().map((url) => new URL(url).origin)),
    authorization: fc.oneof(fc.constant(`Bearer ${apiKey}`), fc.string({ maxLength: 30 }).filter((value) => /^[\x20-\x7e]*$/.test(value))),
    'x-forwarded-for': fc.ipV4(),
  },
  { requiredKeys: [] },
);

test('arbitrary requests to every POST/PUT endpoint: never a 500, JSON errors, and 2xx means stored as acknowledged', async () => {
  const statuses = new Map<number, number>();
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...endpoints), body, headersWith(apiKey), async (endpoint, bytes, requestHeaders) => {
      const before = 'kind' in endpoint ? await counts() : undefined;
      const response = await collector.request(endpoint.path(), {
        method: endpoint.method,
        body: bytes,
        headers: requestHeaders as Record<string, string>,
      });
      expect(response.status).toBeLessThan(500);
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      const text = await response.text();
      if (response.status >= 400) expect((JSON.parse(text) as { error: { code: string } }).error.code).toBeTruthy();
      if (before && 'kind' in endpoint) {
        const after = await counts();
        const grew = after[endpoint.kind] - before[endpoint.kind];
        if (response.status == 202) {
          const { accepted, merged = 0 } = JSON.parse(text) as { accepted: number; merged?: number };
          // A session is created once and then updated: it grows by at most one.
          if (endpoint.kind == 'sessions') expect(grew).toBeLessThanOrEqual(1);
          // A further copy of a stored violation is merged into it (docs/csp-reports.md), not stored anew.
          else expect(grew).toBe(accepted - merged);
        } else {
          expect(grew).toBe(0);
        }
      }
      expect(collector.errors).toEqual([]);
    }),
    { numRuns: RUNS * endpoints.length, seed: SEED },
  );
  // The generators reach the accepting paths too, not only the refusals.
  expect(statuses.get(202) ?? 0).toBeGreaterThan(0);
  expect(statuses.get(400) ?? 0).toBeGreaterThan(0);
  // Still serving.
  expect((await collector.request('/api/test-connectivity')).status).toBe(200);
}, 120_000);

// Hostile CSP reports (docs/hostile-input.md: policies widened by reports, names from Object.prototype, bounded reads): directive names and blocked URIs with ";", ",",
// quotes, whitespace, control characters and Object.prototype names, and batches of distinct hosts
// that pile up over the runs. The suggested policy and the header stay well formed and bounded.
const cspBatch = fc.oneof(
  fc.array(fc.record({ directive: hostileDirective, blocked: hostileBlockedUri }), { minLength: 1, maxLength: 10 }),
  fc.tuple(fc.nat({ max: 1e6 }), fc.integer({ min: 1, max: 100 }), fc.constantFrom('img-src', 'script-src-elem', 'connect-src')).map(([offset, count, directive]) =>
    manyDistinctHosts(count).map((blocked) => ({ directive, blocked: blocked.replace('https://h', `https://h${offset}-`) })),
  ),
);

test('hostile CSP reports and floods of hosts: the suggested policy and its header stay well formed, within the base and the cap', async () => {
  const key = await collector.apiKey(siteKey);
  const api = (method: string, path: string, body?: object) =>
    collector.request(path, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body && JSON.stringify(body),
    });
  const created = await api('POST', '/api/v1/csp-projects', { site_key: siteKey, name: 'fuzz', base_policy: "default-src 'self'" });
  const { id } = (await created.json()) as { id: number };
  await fc.assert(
    fc.asyncProperty(basePolicy, cspBatch, fc.boolean(), async (base, batch, asReportingApi) => {
      expect((await api('PATCH', `/api/v1/csp-projects/${id}`, { base_policy: base })).status).toBe(200);
      const body = asReportingApi
        ? JSON.stringify(batch.map(({ directive, blocked }) => ({ type: 'csp-violation', url: `${shop}/page`, body: { effectiveDirective: directive, blockedURL: blocked } })))
        : JSON.stringify({ 'csp-report': { 'document-uri': `${shop}/page`, 'effective-directive': batch[0]!.directive, 'blocked-uri': batch[0]!.blocked } });
      const posted = await collector.post(`/api/csp-reports/${siteKey}`, body, { origin: shop, 'content-type': asReportingApi ? 'application/reports+json' : 'application/csp-report' });
      expect(posted.status).toBeLessThan(500);
      const suggested = await api('GET', `/api/v1/csp-projects/${id}/suggested-policy`);
      expect(suggested.status).toBe(200);
      const suggestion = (await suggested.json()) as { policy: string; evidence: { groups: number } };
      expectWellFormedSuggestion(base, suggestion, SUGGESTION_LIMITS.addedSourcesPerDirective);
      expect(suggestion.evidence.groups).toBeLessThanOrEqual(SUGGESTION_LIMITS.evidenceGroups);
      const header = await api('GET', `/api/v1/csp-projects/${id}/header?policy=suggested`);
      expect(header.status).toBe(200);
      const { value } = (await header.json()) as { value: string };
      // The suggestion's own directives, then this collector's report-uri and report-to.
      const written = parsePolicy(value);
      const expected = parsePolicy(suggestion.policy);
      for (const name of ['report-uri', 'report-to']) expected.delete(name);
      expected.set('report-uri', [`http://127.0.0.1:8787/api/csp-reports/${siteKey}`]).set('report-to', ['sitebeacon']);
      expect(written).toEqual(expected);
      expect(value).not.toMatch(/[\x00-\x1f\x7f,"]|[^\x00-\x7f]/);
      expect(collector.errors).toEqual([]);
    }),
    { numRuns: RUNS, seed: SEED },
  );
  // Hosts pile up over the runs (up to 100 a run): `npm run fuzz` gets the time it needs.
}, Math.max(120_000, RUNS * 300));
