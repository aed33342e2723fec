// `Origin: null` on the CSP endpoints (docs/csp-reports.md, "`Origin: null`"). WebKit sends every report of its own with
// `Origin: null` (collector/fixtures/README.md); the collector takes them for documents of the
// site's allowed origins. What an attacker could do with it, and why they cannot:
// - a page of another site (sandboxed iframe, data: URL) also sends `Origin: null`, but only a
//   CORS-safelisted type (text/plain, a form's types) leaves it without a preflight: refused 403;
// - application/csp-report or application/reports+json from such a page needs a preflight, and an
//   opaque origin's preflight is refused: the POST is never sent;
// - a report that names a document of another origin is not stored, whatever its Origin;
// - no answer to `Origin: null` carries CORS headers: an opaque origin reads nothing;
// - the other endpoints (errors, sessions) and preflights refuse `Origin: null` as before.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { createTestCollector } from '../testing/testCollector';
import { origin, reportedUrl } from '../testing/urlArbitraries';

interface CapturedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}
const webkit = (name: string) =>
  JSON.parse(readFileSync(new URL(`../fixtures/webkitgtk-2.50/${name}`, import.meta.url), 'utf8')) as CapturedRequest[];

const page = 'https://127.0.0.1:18142';
const shop = 'https://shop.example';
const violation = (documentUri: string, blocked = 'https://cdn.example.net/x.png') => ({
  'csp-report': { 'document-uri': documentUri, 'effective-directive': 'img-src', 'blocked-uri': blocked },
});
const reportTo = (documentUri: string, blocked = 'https://cdn.example.net/x.png') => ({
  type: 'csp-violation',
  url: documentUri,
  body: { documentURL: documentUri, effectiveDirective: 'img-src', blockedURL: blocked },
});
const CSP_REPORT = { origin: 'null', 'content-type': 'application/csp-report' };

describe('Origin: null on the CSP endpoints', () => {
  let collector: ReturnType<typeof createTestCollector>;
  let siteKey: string;
  beforeEach(async () => {
    collector = createTestCollector();
    siteKey = await collector.addSite([page, shop]);
  });
  afterEach(async () => {
    expect(collector.errors).toEqual([]);
    await collector.close();
  });
  const post = (body: unknown, headers: Record<string, string>, key = siteKey) => collector.post(`/api/csp-reports/${key}`, body, headers);
  const stored = (key = siteKey) => collector.stored('csp', key);

  test("WebKit's own report-uri and report-to reports, with their original headers, are stored, and answered without CORS headers", async () => {
    for (const captured of [...webkit('csp-report-uri.json'), ...webkit('reporting-api.json')]) {
      const response = await collector.request(`/api/csp-reports/${siteKey}`, { method: 'POST', headers: captured.headers, body: captured.body });
      expect(response.status).toBe(202);
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
      expect(await response.json()).toEqual({ status: 'accepted', accepted: 1 });
    }
    const records = await stored();
    expect(records).toHaveLength(6);
    expect(new Set(records.map((record) => record.document_uri))).toEqual(new Set([`${page}/cart?step=2`]));
    expect(records.map((record) => record.source)).toEqual(['report-uri', 'report-uri', 'report-uri', 'report-to', 'report-to', 'report-to']);
  });

  test.each([
    ['another site', 'https://evil.example/cart'],
    ['a look-alike host', 'https://shop.example.evil.example/'],
    ['another scheme', 'http://shop.example/'],
    ['another port', 'https://shop.example:8443/'],
    ['credentials before another host', 'https://shop.example@evil.example/'],
    ['a data: document', 'data:text/html,<p>x'],
    ['about:blank', 'about:blank'],
    ['no URL', 'shop.example'],
  ])('a report for %s (%s) is not stored, answered 204 so that no browser retries, and logged', async (_name, documentUri) => {
    for (const [body, type] of [
      [violation(documentUri), 'application/csp-report'],
      [[reportTo(documentUri)], 'application/reports+json'],
    ] as const) {
      const response = await post(body, { origin: 'null', 'content-type': type });
      expect(response.status).toBe(204);
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
    }
    expect(await stored()).toEqual([]);
    expect(collector.requestLog.map((entry) => [entry.status, entry.foreign_reports])).toEqual([
      [204, 1],
      [204, 1],
    ]);
  });

  test("a batch with the site's own and foreign documents: the own ones are stored, the foreign ones counted", async () => {
    const batch = [reportTo(`${shop}/a`), reportTo('https://evil.example/b'), reportTo(`${page}/c`, 'eval'), reportTo('https://evil.example/d')];
    const response = await post(batch, { origin: 'null', 'content-type': 'application/reports+json' });
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ status: 'accepted', accepted: 2, foreign: 2 });
    expect((await stored()).map((record) => record.document_uri)).toEqual([`${shop}/a`, `${page}/c`]);
    expect(collector.requestLog.at(-1)).toMatchObject({ status: 202, foreign_reports: 2 });
  });

  test.each(['text/plain;charset=UTF-8', 'application/json'])(
    'with %s (what a sandboxed page of any site can send without a preflight), Origin: null is refused 403 even for an own document',
    async (type) => {
      const response = await post(violation(`${shop}/`), { origin: 'null', 'content-type': type });
      expect(response.status).toBe(403);
      expect(await response.json()).toMatchObject({ error: { code: 'origin_not_allowed' } });
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
      expect(await stored()).toEqual([]);
    },
  );

  test('the preflight an opaque origin needs for application/csp-report or reports+json is refused, without CORS headers', async () => {
    const response = await collector.request(`/api/csp-reports/${siteKey}`, {
      method: 'OPTIONS',
      headers: { origin: 'null', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(response.status).toBe(403);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });

  test('error reports and performance sessions still refuse Origin: null, whatever the Content-Type', async () => {
    for (const path of [`/api/error-reports/${siteKey}`, `/api/performance-sessions/${siteKey}`, '/api/error-reports']) {
      for (const type of ['application/csp-report', 'application/reports+json', 'application/json']) {
        const response = await collector.post(path, { error_type: 'x', error_message: 'y', session_id: 's', metrics: {} }, { origin: 'null', 'content-type': type });
        expect(response.status, `${path} ${type}`).toBe(403);
      }
    }
    expect(await collector.stored('errors', siteKey)).toEqual([]);
  });

  test('the default site allows no origin: an Origin: null report to the unkeyed endpoint is never stored', async () => {
    const response = await collector.post('/api/csp-reports', violation(`${shop}/`), CSP_REPORT);
    expect(response.status).toBe(204);
    expect(await stored('default')).toEqual([]);
  });

  test('a real Origin is still checked as before: a foreign one is refused 403 whatever the document', async () => {
    const response = await post(violation(`${shop}/`), { origin: 'https://evil.example', 'content-type': 'application/csp-report' });
    expect(response.status).toBe(403);
    expect(await stored()).toEqual([]);
  });
});

describe('Origin: null, for any document URL and allowed origins', () => {
  let collector: ReturnType<typeof createTestCollector>;
  beforeAll(() => {
    collector = createTestCollector();
  });
  afterAll(() => collector.close());

  test("a report is stored exactly when its document's origin is one of the site's allowed origins", async () => {
    const documentUrl = fc.oneof(reportedUrl, fc.string({ maxLength: 30 }));
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(origin, { minLength: 1, maxLength: 3 }), documentUrl, fc.boolean(), async (origins, documentUri, ownDocument) => {
        // As `site add` stores them: serialised origins.
        const allowed = [...new Set(origins.filter((text) => URL.canParse(text)).map((text) => new URL(text).origin))];
        fc.pre(allowed.length > 0);
        const siteKey = await collector.addSite(allowed);
        // Half the runs on a page of an allowed origin, the others on whatever was generated.
        const sent = ownDocument && URL.canParse(documentUri) ? `${allowed[0]}${new URL(documentUri).pathname}` : documentUri;
        const own = URL.canParse(sent) && allowed.includes(new URL(sent).origin);
        const response = await collector.post(`/api/csp-reports/${siteKey}`, violation(sent), CSP_REPORT);
        expect(response.status).toBe(own ? 202 : 204);
        expect(await collector.stored('csp', siteKey)).toHaveLength(own ? 1 : 0);
      }),
      { numRuns: 40 },
    );
  });
});
