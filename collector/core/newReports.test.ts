import { expect, test } from 'vitest';
import { newErrorReport } from './newReports';

const report = (line: number, name = 'render') => ({
  error_type: 'javascript_error',
  error_name: 'TypeError',
  error_message: 'x is undefined',
  stack: `TypeError: x is undefined\n    at ${name} (https://shop.example/app.js:1:${line})`,
});

test('newErrorReport handed to map as it is fingerprints every report as one called with the report alone', () => {
  const reports = [report(10), report(10), report(10)];
  const alone = reports.map((one) => newErrorReport(one)).map(({ fingerprint }) => fingerprint);
  // map passes each one's index and the array too: neither is a place in the source.
  const mapped = (reports.map as (fn: unknown) => Array<{ fingerprint: string }>)(newErrorReport).map(({ fingerprint }) => fingerprint);
  expect(new Set(alone).size).toBe(1);
  expect(mapped).toEqual(alone);
});

test('a place in the source, when given, groups two builds by it instead of their minified frames', () => {
  const original = { source: 'src/cart.js', line: 5 };
  expect(newErrorReport(report(10, 'n'), original).fingerprint).toBe(newErrorReport(report(99, 'q'), original).fingerprint);
  expect(newErrorReport(report(10, 'n')).fingerprint).not.toBe(newErrorReport(report(99, 'q')).fingerprint);
});
