// toCsp2Names in one pass (docs/performance.md) against the plain reading of its rule: every name sent, less
// the aliases and null members, then each CSP2 name from the first of its candidates present.
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { toCsp2Names } from './cspFieldNames';

const CANDIDATES: Record<string, string[]> = {
  'document-uri': ['document-uri', 'documentURL', 'documentURI'],
  'violated-directive': ['violated-directive', 'violatedDirective'],
  'effective-directive': ['effective-directive', 'effectiveDirective'],
  'original-policy': ['original-policy', 'originalPolicy'],
  'blocked-uri': ['blocked-uri', 'blockedURL', 'blockedURI'],
  'source-file': ['source-file', 'sourceFile'],
  'line-number': ['line-number', 'lineNumber'],
  'column-number': ['column-number', 'columnNumber'],
  'status-code': ['status-code', 'statusCode'],
  'script-sample': ['script-sample', 'sample', 'scriptSample'],
};
const ALIASES = new Set(Object.values(CANDIDATES).flatMap((names) => names.slice(1)));

const reference = (sent: Record<string, unknown>) => {
  const present = Object.entries(sent).filter(([, value]) => value !== null);
  const renamed = Object.create(null) as Record<string, unknown>;
  for (const [name, value] of present) if (!ALIASES.has(name)) renamed[name] = value;
  for (const [name, candidates] of Object.entries(CANDIDATES)) {
    const source = candidates.find((candidate) => present.some(([sentName]) => sentName == candidate));
    if (source) renamed[name] = present.find(([sentName]) => sentName == source)![1];
  }
  return renamed;
};

const names = fc.constantFrom(...Object.values(CANDIDATES).flat(), 'referrer', 'disposition', '__proto__', 'constructor', 'toString', 'x');
const body = fc
  .array(fc.tuple(names, fc.oneof(fc.string({ maxLength: 3 }), fc.constant(null), fc.integer())), { maxLength: 12 })
  .map((entries) => JSON.parse(`{${entries.map(([name, value]) => `${JSON.stringify(name)}:${JSON.stringify(value)}`).join(',')}}`) as Record<string, unknown>);

test('every body comes out on CSP2 names as the rule reads, key order included', () => {
  fc.assert(
    fc.property(body, (sent) => {
      const renamed = toCsp2Names(sent);
      expect(isDeepStrictEqual(renamed, reference(sent))).toBe(true);
      expect(Object.keys(renamed)).toEqual(Object.keys(reference(sent)));
    }),
    { numRuns: 2000, seed: 20261127 },
  );
});

test('a CSP2 name wins over its aliases, and the first alias over the next', () => {
  expect({ ...toCsp2Names({ blockedURI: 'b', blockedURL: 'a', 'blocked-uri': null }) }).toEqual({ 'blocked-uri': 'a' });
  expect({ ...toCsp2Names({ sample: 's', 'script-sample': 'c' }) }).toEqual({ 'script-sample': 'c' });
});
