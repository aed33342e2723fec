// The CSP reports' fast path (docs/performance.md) against the valibot schema it stands in for: on any JSON it
// either steps aside or gives exactly valibot's output, and the schema the endpoints use answers
// every input as valibot alone does.
import { readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { cspBatch } from '../../bench/ingest.mjs';
import { CspReportsSchema, CspReportsValibotSchema } from './cspReport';
import { fastCspReports } from './cspReportFastPath';
import { expectAsValibot } from '../testing/expectAsValibot';

const CSP2_NAMES = [
  'document-uri', 'referrer', 'violated-directive', 'effective-directive', 'original-policy', 'disposition',
  'blocked-uri', 'source-file', 'line-number', 'column-number', 'status-code', 'script-sample',
];
const ALIASES = [
  'documentURL', 'documentURI', 'violatedDirective', 'effectiveDirective', 'originalPolicy', 'blockedURL', 'blockedURI',
  'sourceFile', 'lineNumber', 'columnNumber', 'statusCode', 'sample', 'scriptSample',
];

/** Values around every bound and rule the schema has: lengths, URLs it rewrites, directives, numbers as strings. */
const fieldValue = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom('img-src', "img-src 'self'", 'Script-Src-Elem', 'inline', 'eval', 'constructor', '', ' script-src', 'img-src;script-src'),
  fc.constantFrom(
    'https://cdn.example.net:443/x.png', 'https://u:p@shop.example/cart?step=2#top', 'https://h:443:443/', 'http://h:80', 'data:image/png;base64,AA',
    'chrome-extension://abc/x.js', `https://shop.example/${'p'.repeat(2100)}`, 'x'.repeat(257), 'd'.repeat(33), 'o'.repeat(8193),
  ),
  fc.integer(),
  fc.constantFrom(0, -1, 1, 999, 1000, 2 ** 31, 2 ** 31 + 1, 1.5, -0, 1e300, '200', ' 12 ', '1.5', '-3'),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.jsonValue({ maxDepth: 2 }),
);
const key = fc.oneof(
  fc.constantFrom(...CSP2_NAMES, ...ALIASES),
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'extra', 'source', 'report_type'),
  fc.string({ maxLength: 12 }),
);
/** A JSON object as text, so that `__proto__` and repeated keys arrive as the collector's parser gives them. */
const objectText = (entries: Array<[string, string]>) => `{${entries.map(([name, text]) => `${JSON.stringify(name)}:${text}`).join(',')}}`;
const bodyText = fc
  .array(fc.tuple(key, fc.oneof(fieldValue, fc.constant('e'.repeat(5000))).map((value) => JSON.stringify(value))), { maxLength: 10 })
  .map(objectText);
const envelopeText = fc
  .tuple(
    fc.oneof(fc.constant('csp-violation'), fc.constant('deprecation'), fieldValue),
    fc.oneof(fc.constant(undefined), fieldValue),
    fc.oneof(fc.constant(undefined), fieldValue),
    fc.oneof(fc.constant(undefined), fieldValue),
    fc.oneof(bodyText, fieldValue.map((value) => JSON.stringify(value))),
    fc.array(fc.tuple(key, fieldValue.map((value) => JSON.stringify(value))), { maxLength: 2 }),
  )
  .map(([type, age, url, userAgent, body, others]) => {
    const entries: Array<[string, string]> = [['type', JSON.stringify(type)]];
    for (const [name, value] of [['age', age], ['url', url], ['user_agent', userAgent]] as const) if (value !== undefined) entries.push([name, JSON.stringify(value)]);
    return objectText([...entries, ['body', body], ...others]);
  });
/** Each CSP2 field's kind and bound (cspReport.ts `cspFields`), to aim values at them. */
const BOUNDS: Record<string, ['url' | 'text' | 'directive' | 'count', number]> = {
  'document-uri': ['url', 2048], referrer: ['url', 2048], 'violated-directive': ['directive', 256], 'effective-directive': ['directive', 256],
  'original-policy': ['text', 8192], disposition: ['text', 32], 'blocked-uri': ['url', 2048], 'source-file': ['url', 2048],
  'line-number': ['count', 2 ** 31], 'column-number': ['count', 2 ** 31], 'status-code': ['count', 999], 'script-sample': ['text', 256],
};
const ALIAS_OF: Record<string, string> = {
  documentURL: 'document-uri', documentURI: 'document-uri', violatedDirective: 'violated-directive', effectiveDirective: 'effective-directive',
  originalPolicy: 'original-policy', blockedURL: 'blocked-uri', blockedURI: 'blocked-uri', sourceFile: 'source-file', lineNumber: 'line-number',
  columnNumber: 'column-number', statusCode: 'status-code', sample: 'script-sample', scriptSample: 'script-sample',
};
/** Values at and past a field's bound, of its type and not: what tells two implementations of it apart. */
const edgeValue = (name: string) => {
  const [kind, max] = BOUNDS[ALIAS_OF[name] ?? name]!;
  const common = fc.constantFrom(null, true, '', 1.5, {}, []);
  if (kind == 'count') return fc.oneof(fc.constantFrom(0, -1, -0, max, max + 1, 2 ** 53, `${max}`, ' 7 ', '1e3'), common);
  const long = fc.constantFrom('x'.repeat(max), 'x'.repeat(max + 1), `https://h.example/${'p'.repeat(max)}`, `https://u:p@h.example:443/${'p'.repeat(max - 20)}`);
  if (kind == 'url') return fc.oneof(fc.constantFrom('https://cdn.example.net:443/x.png', 'https://u:p@shop.example/c#f', 'https://h:443:443/', 'HTTP://h:80/', 'eval', 'about:blank'), long, common);
  if (kind == 'directive') return fc.oneof(fc.constantFrom('img-src', "img-src 'self'", 'IMG-SRC', 'script-src-elem', 'inline', 'constructor', ' font-src'), long, common);
  return fc.oneof(fc.constantFrom('enforce', 'report', "default-src 'self'"), long, common);
};
const edgeEntry = fc.constantFrom(...CSP2_NAMES, ...ALIASES).chain((name) => fc.tuple(fc.constant(name), edgeValue(name)));
/** The Reporting API envelope's fields, at their edges. */
const envelopeEntry = fc.oneof(
  fc.tuple(fc.constant('age'), fc.constantFrom(0, 1.5, 2.5, -0.5, 1e300, '12', ' 3.5 ', null, true)),
  fc.tuple(fc.constant('url'), fc.oneof(edgeValue('document-uri'), fc.constant(undefined))),
  fc.tuple(fc.constant('user_agent'), fc.constantFrom('', 'u'.repeat(513), null, 5)),
  fc.tuple(fc.constant('type'), fc.constantFrom('csp-violation', 'CSP-violation', 'deprecation', '', null)),
);
/** Mostly valid reports, so that the fast path is taken often: Chromium's shape with fields changed or added. */
const likelyValid = fc
  .tuple(
    fc.array(fc.oneof({ arbitrary: edgeEntry, weight: 4 }, fc.tuple(key, fieldValue)), { maxLength: 3 }),
    fc.array(envelopeEntry, { maxLength: 2 }),
    fc.boolean(),
    fc.boolean(),
  )
  .map(([entries, envelope, withViolated, withDocumentUrl]) => {
    const [report] = cspBatch(1) as Array<Record<string, unknown> & { body: Record<string, unknown> }>;
    const { documentURL, ...rest } = report!.body;
    const body = { ...rest, ...(withDocumentUrl ? { documentURL } : {}), ...(withViolated ? { violatedDirective: 'img-src' } : {}), ...Object.fromEntries(entries) };
    return JSON.stringify({ ...report, ...Object.fromEntries(envelope), body });
  });
const csp2 = fc.oneof(bodyText, likelyValid.map((text) => JSON.stringify((JSON.parse(text) as { body: unknown }).body))).map((text) => `{"csp-report":${text}}`);

const body = fc.oneof(
  likelyValid.map((text) => `[${text}]`),
  fc.array(fc.oneof(likelyValid, envelopeText), { maxLength: 102 }).map((items) => `[${items.join(',')}]`),
  envelopeText,
  likelyValid,
  csp2,
  fc.jsonValue().map((value) => JSON.stringify(value)),
);

const paths = { fast: fastCspReports, valibot: CspReportsValibotSchema, served: CspReportsSchema };

test('on any JSON the fast path steps aside or gives exactly what valibot gives', () => {
  let fast = 0;
  fc.assert(
    fc.property(body, (text) => {
      if (expectAsValibot(text, paths)) fast++;
    }),
    { numRuns: 3000, seed: 20261127 },
  );
  // Not a vacuous pass: the fast path answered a good share of the inputs.
  expect(fast).toBeGreaterThan(300);
});

test("every CSP report the real browsers sent (shared fixtures) takes the fast path or valibot's, with the same result", () => {
  const bodies: string[] = [];
  for (const browser of readdirSync(new URL('../fixtures/', import.meta.url), { withFileTypes: true })) {
    // stacks/ holds error stacks, not requests (collector/fixtures/README.md).
    if (!browser.isDirectory() || browser.name == 'stacks') continue;
    for (const file of readdirSync(new URL(`../fixtures/${browser.name}/`, import.meta.url))) {
      if (!file.endsWith('.json')) continue;
      const requests = JSON.parse(readFileSync(new URL(`../fixtures/${browser.name}/${file}`, import.meta.url), 'utf8')) as Array<{ method: string; path?: string; body: string }>;
      for (const request of requests) if (request.method == 'POST' && /csp/i.test(request.path ?? '') && request.body) bodies.push(request.body);
    }
  }
  expect(bodies.length).toBeGreaterThan(3);
  // Chromium's and Firefox's Reporting API arrays, and the CSP2 objects, are the common shapes.
  expect(bodies.filter((text) => expectAsValibot(text, paths)).length).toBeGreaterThan(2);
});
