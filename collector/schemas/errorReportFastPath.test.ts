// The error reports' fast path (docs/performance.md) against the valibot schema it stands in for: on any JSON
// it either steps aside or gives exactly valibot's output, and the schema the endpoints use answers
// every input as valibot alone does.
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { errorReport } from '../../bench/ingest.mjs';
import { ErrorReportsSchema, ErrorReportsValibotSchema } from './errorReport';
import { fastErrorReports } from './errorReportFastPath';
import { expectAsValibot, expectSame } from '../testing/expectAsValibot';

const KNOWN = ['error_type', 'error_message', 'error_name', 'stack', 'source_url', 'line', 'column', 'page_url', 'timestamp', 'session_id', 'count', 'causes', 'release', 'environment'];

/** Values around every bound the schema has: lengths, integer ranges, types. */
const fieldValue = fc.oneof(
  fc.string({ maxLength: 80 }),
  fc.constantFrom('', 'javascript_error', 'x'.repeat(64), 'x'.repeat(65), 'y'.repeat(129), 'r'.repeat(200), 'z'.repeat(201), 'm'.repeat(2001), 's'.repeat(2049)),
  fc.integer(),
  fc.constantFrom(0, -1, 1, 2 ** 31, 2 ** 31 + 1, 1_000_000, 1_000_001, 1.5, -0, 1e300),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.jsonValue({ maxDepth: 2 }),
);
/** A cause: its fields with values around their bounds and of wrong types, sometimes missing, sometimes extra ones; or not an object. */
const cause = fc.oneof(
  fc.record(
    {
      error_message: fc.oneof(fc.string({ maxLength: 20 }), fc.constant('m'.repeat(2001)), fc.integer(), fc.constant(null)),
      error_name: fc.oneof(fc.string({ maxLength: 10 }), fc.constant('n'.repeat(201)), fc.boolean()),
      stack: fc.oneof(fc.string({ maxLength: 40 }), fc.constant('s'.repeat(16_001)), fc.integer()),
      aggregate: fc.oneof(fc.boolean(), fc.constant('true'), fc.constant(null)),
      code: fc.string({ maxLength: 5 }),
    },
    { requiredKeys: [] },
  ),
  fc.record({ error_message: fc.string({ maxLength: 20 }), error_name: fc.string({ maxLength: 10 }), aggregate: fc.boolean() }, { requiredKeys: ['error_message'] }),
  fc.constantFrom(null, 'cause', 1, [], [{ error_message: 'm' }]),
);
/** `causes`: arrays around the bound of 5, mostly of valid causes, or not an array. */
const validCauses = fc.array(
  fc.record({ error_message: fc.string({ maxLength: 20 }), stack: fc.string({ maxLength: 20 }), aggregate: fc.boolean() }, { requiredKeys: ['error_message'] }),
  { maxLength: 5 },
);
const causes = fc.oneof(
  validCauses,
  fc.array(cause, { maxLength: 7 }),
  fc.constantFrom(null, {}, 'causes', { error_message: 'm' }),
);

const key = fc.oneof(
  fc.constantFrom(...KNOWN),
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'extra', 'fingerprint'),
  fc.string({ maxLength: 12 }),
);
/** A JSON object as text: any keys (reserved and repeated ones too), then parsed as the collector parses it. */
const reportText = fc
  .tuple(
    fc.record({ error_type: fieldValue, error_message: fieldValue }, { requiredKeys: [] }),
    fc.array(fc.tuple(key, fc.oneof(fieldValue, causes, fc.constant('e'.repeat(5000)))), { maxLength: 8 }),
  )
  .map(([required, entries]) =>
    `{${[...Object.entries(required), ...entries].map(([name, value]) => `${JSON.stringify(name)}:${JSON.stringify(value)}`).join(',')}}`,
  );
/** A release and an environment as the beacon sends them, or none. */
const releaseFields = fc.record(
  { release: fc.oneof(fc.string({ maxLength: 20 }), fc.constant('r'.repeat(200))), environment: fc.constantFrom('production', 'staging', '') },
  { requiredKeys: [] },
);
/** Mostly valid reports, so that the fast path is taken often: the beacon's fields with arbitrary extras. */
const likelyValid = fc
  .tuple(fc.nat(100), fc.option(causes), releaseFields, fc.array(fc.tuple(key, fieldValue), { maxLength: 3 }))
  .map(([i, causes, release, entries]) =>
    JSON.stringify({
      ...errorReport(i),
      ...(causes === null ? {} : { causes }),
      ...release,
      ...Object.fromEntries(entries.filter(([name]) => !['__proto__'].includes(name))),
    }),
  );
const body = fc.oneof(
  reportText,
  likelyValid,
  fc.array(fc.oneof(reportText, likelyValid), { maxLength: 52 }).map((items) => `[${items.join(',')}]`),
  fc.jsonValue().map((value) => JSON.stringify(value)),
);

test('on any JSON the fast path steps aside or gives exactly what valibot gives', () => {
  let fast = 0;
  fc.assert(
    fc.property(body, (text) => {
      if (expectAsValibot(text, { fast: fastErrorReports, valibot: ErrorReportsValibotSchema, served: ErrorReportsSchema })) fast++;
    }),
    { numRuns: 2000, seed: 20261123 },
  );
  // Not a vacuous pass: the fast path answered a good share of the inputs.
  expect(fast).toBeGreaterThan(200);
});

test('what the beacon and the bench send takes the fast path; reserved keys and bad fields do not', () => {
  expect(fastErrorReports(errorReport(1))).toHaveLength(1);
  expect(fastErrorReports(Array.from({ length: 50 }, (_, i) => errorReport(i)))).toHaveLength(50);
  expectSame(fastErrorReports({ error_type: 'js', error_message: 'm', kind: 'custom' }), [
    { error_type: 'js', error_message: 'm', extra: Object.assign(Object.create(null), { kind: 'custom' }) },
  ]);
  expect(fastErrorReports(JSON.parse('{"error_type":"js","error_message":"m","constructor":"MyError"}'))).toBeUndefined();
  expect(fastErrorReports({ error_type: 'js', error_message: 'm', line: -1 })).toBeUndefined();
  expect(fastErrorReports({ error_type: '', error_message: 'm' })).toBeUndefined();
  expect(fastErrorReports(Array.from({ length: 51 }, (_, i) => errorReport(i)))).toBeUndefined();
  expect(fastErrorReports([])).toBeUndefined();
});

test('causes are known fields: up to 5 take the fast path, cut to their bounds, their unknown fields dropped', () => {
  const report = { error_type: 'js', error_message: 'm' };
  expectSame(
    fastErrorReports({
      ...report,
      causes: [{ error_name: 'TypeError', error_message: 'x'.repeat(2500), stack: 'at f (a.js:1:1)', code: 'E1' }, { error_message: 'inner', aggregate: true }],
    }),
    [{ ...report, causes: [{ error_name: 'TypeError', error_message: 'x'.repeat(2000), stack: 'at f (a.js:1:1)' }, { error_message: 'inner', aggregate: true }] }],
  );
  expect(fastErrorReports({ ...report, causes: Array(6).fill({ error_message: 'c' }) })).toBeUndefined();
  expect(fastErrorReports({ ...report, causes: ['not an object'] })).toBeUndefined();
});
