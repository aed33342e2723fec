// What the CSP endpoints make of every field browsers send (docs/wire-format.md, "CSP reports"): null means absent in every
// shape, numbers may come as strings, unknown fields never make a report invalid, the effective
// directive is bare and known, URLs lose default ports and fragments, blocked-URI keywords stay.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import * as v from 'valibot';
import { describe, expect, test } from 'vitest';
import { isKnownDirective } from '../core/csp';
import type { CspReport } from '../core/records';
import { CspReportsSchema } from './cspReport';

const parse = (body: unknown) => v.safeParse(CspReportsSchema, body);
const reports = (body: unknown): CspReport[] => {
  const result = parse(body);
  if (!result.success) throw new Error(result.issues.map((issue) => issue.message).join('; '));
  return result.output;
};
const one = (body: unknown) => reports(body)[0]!;

const firefoxReportTo = () =>
  JSON.parse(
    (JSON.parse(readFileSync(new URL('../fixtures/firefox-esr-153/reporting-api.json', import.meta.url), 'utf8')) as Array<{ method: string; body: string }>).find(
      (request) => request.method == 'POST',
    )!.body,
  ) as Array<{ body: Record<string, unknown> }>;

describe('null means absent', () => {
  test("Firefox ESR 153's report-to batch (`referrer` and `sample` null) is read whole, without those fields", () => {
    const batch = firefoxReportTo();
    expect(batch.every((report) => report.body.referrer === null && report.body.sample === null)).toBe(true);
    const parsed = reports(batch);
    expect(parsed.map((report) => [report.effective_directive, report.blocked_uri])).toEqual([
      ['script-src', 'eval'],
      ['script-src-elem', 'https://ads.example.org/a.js'],
      ['img-src', 'https://cdn.example.net/x.png'],
    ]);
    for (const report of parsed) {
      expect(report).not.toHaveProperty('referrer');
      expect(report).not.toHaveProperty('script_sample');
      expect(report).toMatchObject({ source: 'report-to', status_code: 200, disposition: 'enforce', document_uri: 'https://127.0.0.1:18142/cart?step=2' });
    }
  });

  const everyFieldNull = {
    referrer: null,
    'violated-directive': 'img-src',
    'effective-directive': null,
    'original-policy': null,
    disposition: null,
    'blocked-uri': null,
    'source-file': null,
    'line-number': null,
    'column-number': null,
    'status-code': null,
    'script-sample': null,
    'some-future-field': null,
  };
  test.each([
    ['CSP2', { 'csp-report': { 'document-uri': 'https://shop.example/', ...everyFieldNull } }],
    ["WebKit's report-uri (type and url beside csp-report)", { type: 'csp-violation', url: null, 'csp-report': { 'document-uri': 'https://shop.example/', ...everyFieldNull } }],
    [
      'Reporting API',
      [{ type: 'csp-violation', age: null, url: 'https://shop.example/', user_agent: null, body: { documentURL: null, violatedDirective: 'img-src', blockedURL: null, sample: null, statusCode: null } }],
    ],
    ["Safari's single report", { type: 'csp-violation', url: 'https://shop.example/', body: { documentURL: null, effectiveDirective: 'img-src', lineNumber: null, columnNumber: null } }],
  ])('%s: every optional field may be null', (_shape, body) => {
    const report = one(body);
    expect(report).toEqual({ report_type: 'csp-violation', document_uri: 'https://shop.example/', violated_directive: 'img-src', effective_directive: 'img-src', ...(Array.isArray(body) || 'body' in body ? { source: 'report-to' } : {}) });
  });

  test('a null document URL with no url beside it is still a report without a document: refused', () => {
    expect(parse({ 'csp-report': { 'document-uri': null, 'violated-directive': 'img-src' } }).success).toBe(false);
  });
});

describe('numbers, directives, URLs and keywords', () => {
  test('numeric fields sent as strings of digits are numbers', () => {
    expect(one({ 'csp-report': { 'document-uri': 'https://shop.example/', 'violated-directive': 'img-src', 'status-code': '200', 'line-number': ' 12 ', 'column-number': '0' } })).toMatchObject({
      status_code: 200,
      line_number: 12,
      column_number: 0,
    });
    expect(one([{ type: 'csp-violation', age: '1500', url: 'https://shop.example/', body: { effectiveDirective: 'img-src', lineNumber: '3' } }])).toMatchObject({ age: 1500, line_number: 3 });
  });

  test.each([['-1'], ['1.5'], ['12px'], [''], ['1e3'], [true], [[1]]])('a line number of %j is refused, not guessed', (line) => {
    expect(parse({ 'csp-report': { 'document-uri': 'https://shop.example/', 'violated-directive': 'img-src', 'line-number': line } }).success).toBe(false);
  });

  test.each([
    // [effective-directive, violated-directive, stored effective, stored violated, extra]
    [undefined, 'img-src', 'img-src', 'img-src', undefined],
    [undefined, "script-src 'self' 'unsafe-inline'", 'script-src', "script-src 'self' 'unsafe-inline'", undefined],
    ["style-src 'self'", "style-src 'self'", 'style-src', "style-src 'self'", { 'effective-directive': "style-src 'self'" }],
    ['inline', 'script-src-elem', 'script-src-elem', 'script-src-elem', { 'effective-directive': 'inline' }],
    ['IMG-SRC', undefined, 'img-src', 'IMG-SRC', { 'effective-directive': 'IMG-SRC' }],
  ] as const)('effective %j, violated %j: stored %s (violated %j), the raw value kept', (effective, violated, stored, storedViolated, extra) => {
    const report = one({ 'csp-report': { 'document-uri': 'https://shop.example/', 'effective-directive': effective, 'violated-directive': violated } });
    expect(report).toMatchObject({ effective_directive: stored, violated_directive: storedViolated });
    expect(report.extra).toEqual(extra);
  });

  test('a report whose directives name no directive is refused', () => {
    expect(parse({ 'csp-report': { 'document-uri': 'https://shop.example/', 'effective-directive': 'inline', 'violated-directive': 'eval' } })).toMatchObject({
      success: false,
      issues: [{ message: expect.stringContaining('needs a directive name') }],
    });
  });

  test("URLs lose an explicit default port, credentials and the fragment (WebKit's report-to: https://cdn.example.net:443/x.png)", () => {
    expect(
      one({
        type: 'csp-violation',
        url: 'https://shop.example:443/cart?step=2#top',
        body: { effectiveDirective: 'img-src', blockedURL: 'https://cdn.example.net:443/x.png', sourceFile: 'https://u:p@shop.example/app.js#x', referrer: 'https://shop.example:443/' },
      }),
    ).toMatchObject({
      document_uri: 'https://shop.example/cart?step=2',
      blocked_uri: 'https://cdn.example.net/x.png',
      source_file: 'https://shop.example/app.js',
      referrer: 'https://shop.example/',
    });
  });

  test.each(['inline', 'eval', 'wasm-eval', 'self', 'data', 'blob', 'trusted-types-sink', ''])('the blocked-URI keyword %j is kept as sent', (blocked) => {
    expect(one({ 'csp-report': { 'document-uri': 'https://shop.example/', 'violated-directive': 'script-src', 'blocked-uri': blocked } }).blocked_uri).toBe(blocked);
  });
});

describe('whatever else a browser adds', () => {
  const field = fc.oneof(fc.constant(null), fc.string({ maxLength: 20 }), fc.integer(), fc.boolean(), fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 2 }));
  const unknownName = fc.string({ minLength: 1, maxLength: 12 }).filter((name) => !/^(?:__proto__|document|violated|effective|original|disposition|blocked|source|line|column|status|script|sample|referrer|statusCode|lineNumber|columnNumber)/i.test(name));

  test('unknown fields (null or not) never make a report invalid; non-null ones are kept in extra', () => {
    fc.assert(
      fc.property(fc.dictionary(unknownName, field, { maxKeys: 5 }), fc.boolean(), (extra, asReportingApi) => {
        const body = asReportingApi
          ? [{ type: 'csp-violation', url: 'https://shop.example/', body: { effectiveDirective: 'img-src', ...extra } }]
          : { 'csp-report': { 'document-uri': 'https://shop.example/', 'violated-directive': 'img-src', ...extra } };
        const report = one(body);
        expect(report.effective_directive).toBe('img-src');
        const kept = Object.entries(extra).filter(([, value]) => value !== null);
        if (kept.length) expect(report.extra).toEqual(Object.fromEntries(kept));
        else expect(report.extra).toBeUndefined();
      }),
    );
  });

  test('any mix of null, numbers, digit strings and strings in the known fields: accepted or refused with a message, never thrown; accepted ones have a bare known directive and no fragment', () => {
    const url = fc
      .tuple(fc.constantFrom('https://shop.example', 'https://shop.example:443', 'http://a.example:80', 'https://u:p@b.example:8443'), fc.constantFrom('/', '/cart?step=2'), fc.constantFrom('', '#top', '#'))
      .map((parts) => parts.join(''));
    const value = fc.oneof(fc.constant(null), fc.nat(), fc.nat().map(String), fc.string({ maxLength: 12 }), url);
    const directive = fc.oneof(fc.constant(null), fc.constantFrom('img-src', "script-src 'self'", 'STYLE-SRC-ELEM', 'inline', ''), fc.string({ maxLength: 10 }));
    fc.assert(
      fc.property(
        fc.record({ 'document-uri': fc.oneof(url, fc.constant(null)), 'effective-directive': directive, 'violated-directive': directive }),
        fc.dictionary(fc.constantFrom('referrer', 'blocked-uri', 'source-file', 'line-number', 'column-number', 'status-code', 'script-sample', 'disposition'), value),
        (head, rest) => {
          const result = parse({ 'csp-report': { ...head, ...rest } });
          if (!result.success) {
            expect(result.issues[0]!.message).toBeTruthy();
            return;
          }
          const [report] = result.output;
          expect(isKnownDirective(report!.effective_directive!)).toBe(true);
          expect(report!.document_uri).not.toContain('#');
          for (const [name, sent] of Object.entries(rest)) {
            const stored = (report as unknown as Record<string, unknown>)[name.replace(/-/g, '_')];
            if (sent === null) expect(stored).toBeUndefined();
            else if (/number|code/.test(name)) expect(stored).toBe(Number(sent));
          }
        },
      ),
    );
  });
});
