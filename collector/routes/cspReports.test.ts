import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createTestCollector } from '../testing/testCollector';

interface CapturedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** Requests exactly as Chromium 156 sent them (collector/fixtures/chromium-156, copied from the team's shared fixtures). */
const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`../fixtures/chromium-156/${name}`, import.meta.url), 'utf8')) as CapturedRequest[];

const pageOrigin = 'https://127.0.0.1:18142';

describe('CSP reports', () => {
  let collector: ReturnType<typeof createTestCollector>;
  let siteKey: string;
  beforeEach(async () => {
    collector = createTestCollector();
    siteKey = await collector.addSite([pageOrigin]);
  });
  afterEach(async () => {
    expect(collector.errors).toEqual([]);
    await collector.close();
  });

  const replay = (request: CapturedRequest) =>
    collector.request(`/api/csp-reports/${siteKey}`, {
      method: request.method,
      headers: request.headers,
      body: request.method == 'POST' ? request.body : undefined,
    });
  const stored = () => collector.stored('csp', siteKey);

  test('report-uri POSTs from Chromium (application/csp-report) are stored with every CSP2 field', async () => {
    for (const request of fixture('csp-report-uri.json')) expect((await replay(request)).status).toBe(202);
    const records = await stored();
    expect(records.map((record) => [record.effective_directive, record.blocked_uri])).toEqual([
      ['img-src', 'https://cdn.example.net/pixel.gif'],
      ['script-src', 'eval'],
      ['script-src-elem', 'https://ads.example.org/tag.js'],
    ]);
    expect(records[0]).toMatchObject({
      report_type: 'csp-violation',
      document_uri: 'https://127.0.0.1:18142/cart?step=2',
      referrer: '',
      violated_directive: 'img-src',
      disposition: 'enforce',
      line_number: 1,
      column_number: 108,
      source_file: 'https://127.0.0.1:18142/cart',
      status_code: 200,
      script_sample: '',
      user_agent: expect.stringContaining('HeadlessChrome/156'),
    });
    expect(records[0]!.original_policy).toContain("img-src 'self'");
  });

  test('the Reporting API preflight and application/reports+json batches from Chromium are accepted', async () => {
    const requests = fixture('reporting-api.json');
    const statuses: number[] = [];
    for (const request of requests) {
      const response = await replay(request);
      statuses.push(response.status);
      if (request.method == 'OPTIONS') {
        expect(response.headers.get('access-control-allow-origin')).toBe(pageOrigin);
        expect(response.headers.get('access-control-allow-headers')).toBe('Content-Type');
      }
    }
    expect(statuses).toEqual(requests.map((request) => (request.method == 'OPTIONS' ? 204 : 202)));
    const posted = requests.filter((request) => request.method == 'POST').flatMap((request) => JSON.parse(request.body));
    const records = await stored();
    expect(records).toHaveLength(posted.length);
    expect(records[0]).toMatchObject({
      report_type: 'csp-violation',
      document_uri: 'https://127.0.0.1:18142/cart?step=2',
      effective_directive: 'img-src',
      violated_directive: 'img-src',
      blocked_uri: 'https://cdn.example.net/pixel.gif',
      source_file: 'https://127.0.0.1:18142/cart',
      line_number: 1,
      column_number: 108,
      age: 0,
    });
  });

  test("Safari's single {type, url, body} object sent as application/csp-report is accepted", async () => {
    const response = await collector.post(
      `/api/csp-reports/${siteKey}`,
      {
        type: 'csp-violation',
        url: 'https://shop.example/',
        body: { documentURL: 'https://shop.example/', effectiveDirective: 'script-src-elem', blockedURL: 'https://ads.example/t.js', disposition: 'enforce' },
      },
      { 'content-type': 'application/csp-report' },
    );
    expect(response.status).toBe(202);
    expect((await stored())[0]).toMatchObject({ effective_directive: 'script-src-elem', blocked_uri: 'https://ads.example/t.js' });
  });

  test('other Reporting API types are stored as reports of their type with their body', async () => {
    const deprecation = { type: 'deprecation', age: 12, url: 'https://shop.example/', body: { id: 'UnloadHandler', message: 'unload is deprecated' } };
    const response = await collector.post(`/api/csp-reports/${siteKey}`, [deprecation], { 'content-type': 'application/reports+json' });
    expect(response.status).toBe(202);
    expect((await stored())[0]).toMatchObject({ report_type: 'deprecation', document_uri: 'https://shop.example/', age: 12, body: deprecation.body });
  });

  test.each(['chrome-extension://abc/inject.js', 'moz-extension://abc/x.js', 'safari-web-extension://abc/x.js', 'about:blank'])(
    'a violation from %s is noise: 204, nothing stored',
    async (blocked) => {
      const response = await collector.post(`/api/csp-reports/${siteKey}`, {
        'csp-report': { 'document-uri': 'https://shop.example/', 'violated-directive': 'script-src', 'blocked-uri': blocked },
      });
      expect(response.status).toBe(204);
      expect(await stored()).toEqual([]);
    },
  );

  test.each([
    ['no directive', { 'csp-report': { 'document-uri': 'https://shop.example/' } }],
    ['a csp-report that is not an object', { 'csp-report': 'x' }],
    ['an unrelated object', { hello: 'world' }],
    ['a Reporting API report without a body', [{ type: 'csp-violation', url: 'https://shop.example/' }]],
    ['an empty array', []],
  ])('%s is 400 invalid_report, nothing stored', async (_name, body) => {
    const response = await collector.post(`/api/csp-reports/${siteKey}`, body);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: 'invalid_report' } });
    expect(await stored()).toEqual([]);
  });

  test("one violation reported by the beacon and by the browser itself is stored once, with both sources, and counted once by the read API and /summary (copies)", async () => {
    const violation = {
      'document-uri': 'https://127.0.0.1:18142/cart?step=2',
      'violated-directive': 'img-src',
      'effective-directive': 'img-src',
      'blocked-uri': 'https://cdn.example.net/x.png',
      'line-number': 9,
      'column-number': 27,
    };
    // The beacon's copy (fetch: application/json), then the browser's own report-uri POST.
    const beacon = await collector.post(`/api/csp-reports/${siteKey}`, { 'csp-report': { ...violation, disposition: 'enforce' } }, { origin: pageOrigin });
    expect(await beacon.json()).toEqual({ status: 'accepted', accepted: 1 });
    const native = await collector.post(`/api/csp-reports/${siteKey}`, { 'csp-report': { ...violation, 'status-code': 0 } }, { origin: pageOrigin, 'content-type': 'application/csp-report' });
    expect(native.status).toBe(202);
    expect(await native.json()).toEqual({ status: 'accepted', accepted: 1, merged: 1 });
    // Another visitor's page view (another client) with the same violation is a second violation.
    await collector.post(`/api/csp-reports/${siteKey}`, { 'csp-report': violation }, { origin: pageOrigin, 'content-type': 'text/plain;charset=UTF-8', 'user-agent': 'Another/1.0' });

    const key = await collector.apiKey(siteKey);
    const read = async (path: string) =>
      (await (await collector.request(`/api/v1/sites/${siteKey}/${path}`, { headers: { authorization: `Bearer ${key}` } })).json()) as Record<string, any>;
    const { data } = await read('csp-reports');
    expect(data).toHaveLength(2);
    expect(data[0]).toMatchObject({ source: 'report-uri', sources: ['beacon', 'report-uri'], status_code: 0 });
    expect(data[0]).not.toHaveProperty('disposition');
    expect(data[1]).toMatchObject({ source: 'beacon', sources: ['beacon'] });
    expect((await read('summary')).csp).toEqual([{ directive: 'img-src', blocked_host: 'cdn.example.net', disposition: 'report', reports: 2 }]);
  });

  test("a client's identical report within seconds is its browser repeating itself (WebKit's preload scanner): stored once; another client's is not", async () => {
    // What WebKitGTK 2.50 sent for one blocked <img> behind a parser-blocking script: twice, no position.
    const report = { 'csp-report': { 'document-uri': `${pageOrigin}/both?step=2`, 'violated-directive': 'img-src', 'effective-directive': 'img-src', 'blocked-uri': 'https://cdn.example.net/x.png', 'status-code': 0 } };
    const send = (userAgent: string, policy = "img-src 'self'") =>
      collector.post(`/api/csp-reports/${siteKey}`, { 'csp-report': { ...report['csp-report'], 'original-policy': policy } }, { origin: 'null', 'content-type': 'application/csp-report', 'user-agent': userAgent });
    expect(await (await send('WebKit/1')).json()).toEqual({ status: 'accepted', accepted: 1 });
    expect(await (await send('WebKit/1')).json()).toEqual({ status: 'accepted', accepted: 1, merged: 1 });
    // Another client, or another policy of the page: another violation.
    expect(await (await send('WebKit/2')).json()).toEqual({ status: 'accepted', accepted: 1 });
    expect(await (await send('WebKit/1', "default-src 'self'")).json()).toEqual({ status: 'accepted', accepted: 1 });
    // The beacon's copy (line 0 and column 1 in WebKit's event: no position) merges into the first.
    const beacon = { ...report['csp-report'], 'column-number': 1 };
    delete (beacon as Record<string, unknown>)['status-code'];
    expect(await (await collector.post(`/api/csp-reports/${siteKey}`, { 'csp-report': { ...beacon, 'original-policy': "img-src 'self'" } }, { origin: pageOrigin, 'user-agent': 'WebKit/1' })).json()).toEqual({
      status: 'accepted',
      accepted: 1,
      merged: 1,
    });
    expect((await stored()).map((record) => [record.user_agent, record.sources])).toEqual([
      ['WebKit/1', ['report-uri', 'beacon']],
      ['WebKit/2', ['report-uri']],
      ['WebKit/1', ['report-uri']],
    ]);
  });

  test('the spec-shaped POST /api/csp-reports stores under the default site', async () => {
    const body = { 'csp-report': { 'document-uri': 'https://a.example/', 'violated-directive': 'img-src', 'blocked-uri': 'https://b.example/i.png' } };
    expect((await collector.post('/api/csp-reports', body)).status).toBe(202);
    expect(await collector.stored('csp', 'default')).toMatchObject([{ blocked_uri: 'https://b.example/i.png' }]);
  });
});

describe('every accepted shape under every accepted Content-Type', () => {
  let collector: ReturnType<typeof createTestCollector>;
  let siteKey: string;
  beforeEach(async () => {
    collector = createTestCollector();
    siteKey = await collector.addSite([pageOrigin]);
  });
  afterEach(() => collector.close());

  const shapes = {
    'CSP2 {"csp-report"}': { 'csp-report': { 'document-uri': 'https://shop.example/', 'effective-directive': 'img-src', 'blocked-uri': 'https://a.example/x.png' } },
    'Reporting API array': [{ type: 'csp-violation', age: 3, url: 'https://shop.example/', user_agent: 'UA', body: { documentURL: 'https://shop.example/', effectiveDirective: 'img-src', blockedURL: 'https://a.example/x.png' } }],
    "Safari's {type, url, body}": { type: 'csp-violation', url: 'https://shop.example/', body: { documentURL: 'https://shop.example/', effectiveDirective: 'img-src', blockedURL: 'https://a.example/x.png' } },
  };
  const types = ['application/csp-report', 'application/reports+json', 'application/json', 'text/plain;charset=UTF-8'];
  const cases = Object.entries(shapes).flatMap(([shape, body]) => types.map((type) => [shape, type, body] as const));

  test.each(cases)('%s as %s is stored', async (_shape, type, body) => {
    const response = await collector.post(`/api/csp-reports/${siteKey}`, body, { 'content-type': type, origin: pageOrigin });
    expect(response.status).toBe(202);
    expect(await collector.stored('csp', siteKey)).toMatchObject([
      { report_type: 'csp-violation', document_uri: 'https://shop.example/', effective_directive: 'img-src', blocked_uri: 'https://a.example/x.png' },
    ]);
  });
});
