// Every kind of bad request the browser-facing endpoints can meet: each is answered with its
// documented status and code (docs/responses.md), nothing is stored, and the collector goes on
// serving.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createTestCollector } from './testing/testCollector';

const shop = 'https://shop.example';
let collector: ReturnType<typeof createTestCollector>;
let siteKey: string;

beforeAll(async () => {
  collector = createTestCollector();
  siteKey = await collector.addSite([shop], 'Shop');
});
afterAll(async () => {
  expect(collector.errors).toEqual([]);
  await collector.close();
});

type Endpoint = 'error' | 'csp' | 'performance';
const paths = (key: string): Record<Endpoint, string> => ({
  error: `/api/error-reports/${key}`,
  csp: `/api/csp-reports/${key}`,
  performance: `/api/performance-sessions/${key}`,
});
const send = (endpoint: Endpoint, body: BodyInit | null, { headers = {}, method = 'POST', key }: { headers?: Record<string, string>; method?: string; key?: string } = {}) =>
  collector.request(paths(key ?? siteKey)[endpoint], {
    method,
    body,
    headers: { 'content-type': 'application/json', ...headers },
    ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
  } as RequestInit);

const validError = { error_type: 'javascript_error', error_message: 'x' };
const validCsp = { 'csp-report': { 'document-uri': 'https://shop.example/', 'violated-directive': 'img-src', 'blocked-uri': 'https://a.example/' } };
const validSession = { session_id: 's', metrics: { LCP: { value: 1 } } };
const valid: Record<Endpoint, object> = { error: validError, csp: validCsp, performance: validSession };
const json = (value: unknown) => JSON.stringify(value);
const chunked = (bytes: number) =>
  new ReadableStream({
    start(controller) {
      for (let sent = 0; sent < bytes; sent += 8192) controller.enqueue(new TextEncoder().encode(' '.repeat(8192)));
      controller.close();
    },
  });
const nested = (depth: number) => `{"error_type":"js","error_message":"m","extra":${'['.repeat(depth)}${']'.repeat(depth)}}`;
const endpoints: Endpoint[] = ['error', 'csp', 'performance'];

const cases: Array<[string, () => Promise<Response>, number, string]> = [
  // Syntax and encoding, on every endpoint.
  ...endpoints.flatMap((endpoint): Array<[string, () => Promise<Response>, number, string]> => [
    [`${endpoint}: truncated JSON`, () => send(endpoint, json(valid[endpoint]).slice(0, -3)), 400, 'invalid_json'],
    [`${endpoint}: an empty body`, () => send(endpoint, ''), 400, 'invalid_json'],
    [`${endpoint}: invalid UTF-8`, () => send(endpoint, new Uint8Array([0x7b, 0x22, 0xc3, 0x28, 0x22, 0x3a, 0x31, 0x7d])), 400, 'invalid_json'],
    [`${endpoint}: JSON nested 10,000 deep`, () => send(endpoint, nested(10_000)), 400, 'invalid_json'],
    [`${endpoint}: JSON nested 33 deep, one over the limit`, () => send(endpoint, nested(32)), 400, 'invalid_json'],
    [`${endpoint}: a body over 64 KiB`, () => send(endpoint, json({ ...valid[endpoint], pad: 'x'.repeat(70_000) })), 413, 'payload_too_large'],
    [`${endpoint}: a chunked body over 64 KiB`, () => send(endpoint, chunked(80_000)), 413, 'payload_too_large'],
    [`${endpoint}: a form post`, () => send(endpoint, 'a=1', { headers: { 'content-type': 'application/x-www-form-urlencoded' } }), 415, 'unsupported_media_type'],
    [`${endpoint}: no Content-Type`, () => collector.request(paths(siteKey)[endpoint], { method: 'POST', body: new Blob([json(valid[endpoint])]) }), 415, 'unsupported_media_type'],
    [`${endpoint}: an unknown site`, () => send(endpoint, json(valid[endpoint]), { key: 'no-such-site' }), 404, 'unknown_site'],
    [`${endpoint}: a foreign origin`, () => send(endpoint, json(valid[endpoint]), { headers: { origin: 'https://evil.example' } }), 403, 'origin_not_allowed'],
    [`${endpoint}: the origin "null"`, () => send(endpoint, json(valid[endpoint]), { headers: { origin: 'null' } }), 403, 'origin_not_allowed'],
    [`${endpoint}: DELETE`, () => send(endpoint, null, { method: 'DELETE' }), 405, 'method_not_allowed'],
    [`${endpoint}: a JSON number`, () => send(endpoint, '42'), 400, 'invalid_report'],
    [`${endpoint}: JSON null`, () => send(endpoint, 'null'), 400, 'invalid_report'],
    [`${endpoint}: required fields only on the prototype`, () => send(endpoint, `{"__proto__":${json(valid[endpoint])}}`), 400, 'invalid_report'],
  ]),
  // Error reports.
  ['error: error_type a number', () => send('error', json({ error_type: 1, error_message: 'm' })), 400, 'invalid_report'],
  ['error: error_message missing', () => send('error', json({ error_type: 'js' })), 400, 'invalid_report'],
  ['error: error_type empty', () => send('error', json({ error_type: '', error_message: 'm' })), 400, 'invalid_report'],
  ['error: line negative', () => send('error', json({ ...validError, line: -1 })), 400, 'invalid_report'],
  ['error: count zero', () => send('error', json({ ...validError, count: 0 })), 400, 'invalid_report'],
  ['error: an array of 51', () => send('error', json(Array(51).fill(validError))), 400, 'invalid_report'],
  ['error: a huge array of numbers', () => send('error', `[${Array(30_000).fill(1)}]`), 400, 'invalid_report'],
  ['error: one bad report in a good array', () => send('error', json([validError, { error_type: 'js' }])), 400, 'invalid_report'],
  ['error: PUT', () => send('error', json(validError), { method: 'PUT' }), 405, 'method_not_allowed'],
  // CSP reports.
  ['csp: csp-report a string', () => send('csp', json({ 'csp-report': 'x' })), 400, 'invalid_report'],
  ['csp: no directive', () => send('csp', json({ 'csp-report': { 'document-uri': 'https://shop.example/' } })), 400, 'invalid_report'],
  ['csp: document-uri a number', () => send('csp', json({ 'csp-report': { 'document-uri': 1, 'violated-directive': 'img-src' } })), 400, 'invalid_report'],
  ['csp: a Reporting API report without a body', () => send('csp', json([{ type: 'csp-violation', url: 'https://shop.example/' }]), { headers: { 'content-type': 'application/reports+json' } }), 400, 'invalid_report'],
  ['csp: a Reporting API array of 101', () => send('csp', json(Array(101).fill({ type: 'deprecation', url: 'https://shop.example/', body: {} })), { headers: { 'content-type': 'application/reports+json' } }), 400, 'invalid_report'],
  ['csp: an unrelated object', () => send('csp', json({ hello: 'world' })), 400, 'invalid_report'],
  // Performance sessions.
  ['performance: no session_id', () => send('performance', json({ metrics: {} })), 400, 'invalid_report'],
  ['performance: metrics an array', () => send('performance', json({ session_id: 's', metrics: [1] })), 400, 'invalid_report'],
  ['performance: a metric value a string', () => send('performance', json({ session_id: 's', metrics: { LCP: { value: '1' } } })), 400, 'invalid_report'],
  ['performance: an infinite value', () => send('performance', '{"session_id":"s","metrics":{"LCP":{"value":1e999}}}'), 400, 'invalid_report'],
  ['performance: 17 metrics', () => send('performance', json({ session_id: 's', metrics: Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`M${String.fromCharCode(65 + i)}`, { value: 1 }])) })), 400, 'invalid_report'],
  ['performance: a session_id of 200 characters', () => send('performance', json({ session_id: 's'.repeat(200), metrics: {} })), 400, 'invalid_report'],
  ['performance: the unkeyed path', () => collector.request('/api/performance-sessions', { method: 'POST', body: json(validSession), headers: { 'content-type': 'application/json' } }), 404, 'not_found'],
];

test('there are at least 40 distinct bad requests here', () => {
  expect(new Set(cases.map(([name]) => name)).size).toBeGreaterThanOrEqual(40);
});

test.each(cases)('%s: %i %s, nothing stored', async (_name, request, status, code) => {
  const response = await request();
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const body = (await response.json()) as { error: { code: string; message: string } };
  expect(body.error.code).toBe(code);
  expect(body.error.message).toBeTruthy();
  for (const key of ['default', siteKey]) {
    expect(await collector.stored('errors', key)).toEqual([]);
    expect(await collector.stored('csp', key)).toEqual([]);
    expect(await collector.stored('performance', key)).toEqual([]);
  }
});

test('after all of them the collector still serves', async () => {
  for (const endpoint of endpoints) expect((await send(endpoint, json(valid[endpoint]), { headers: { origin: shop } })).status).toBe(202);
});

test('JSON nested 32 deep, the limit, is read', async () => {
  const response = await send('error', nested(31), { headers: { origin: shop } });
  expect(response.status).toBe(202);
});

test('brackets inside strings are not nesting: a message full of them is accepted', async () => {
  const message = `${'['.repeat(100)}"\\"{${']'.repeat(100)}`;
  const response = await send('error', json({ ...validError, error_message: message }), { headers: { origin: shop } });
  expect(response.status).toBe(202);
  expect((await collector.stored('errors', siteKey)).at(-1)!.error_message).toBe(message);
});
