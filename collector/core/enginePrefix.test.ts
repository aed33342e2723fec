import { expect, test } from 'vitest';
import { engineNeutralMessage, withoutEnginePrefix } from './enginePrefix';
import { newErrorReport } from './newReports';

// ErrorEvent messages of the same throws in each engine (`throw 'stringError'`, `throw null`,
// `throw {}`, `throw new TypeError('x is undefined')`, `throw ''`).
const CHROMIUM = ['Uncaught stringError', 'Uncaught null', 'Uncaught [object Object]', 'Uncaught TypeError: x is undefined', 'Uncaught '];
const FIREFOX = ['uncaught exception: stringError', 'uncaught exception: null', 'uncaught exception: [object Object]', 'TypeError: x is undefined', 'uncaught exception: '];
const WEBKIT = ['stringError', 'null', '[object Object]', 'TypeError: x is undefined', ''];

test("each engine's message of one throw becomes the same text", () => {
  expect(CHROMIUM.map(withoutEnginePrefix)).toEqual(WEBKIT);
  expect(FIREFOX.map(withoutEnginePrefix)).toEqual(WEBKIT);
  expect(WEBKIT.map(withoutEnginePrefix)).toEqual(WEBKIT);
});

test('only one prefix goes, only at the start, and only as the engines write it', () => {
  expect(withoutEnginePrefix('Uncaught Uncaught x')).toBe('Uncaught x');
  expect(withoutEnginePrefix('Script error.')).toBe('Script error.');
  expect(withoutEnginePrefix('Error: Uncaught exception in worker')).toBe('Error: Uncaught exception in worker');
  expect(withoutEnginePrefix('uncaught value')).toBe('uncaught value');
  expect(withoutEnginePrefix('UncaughtError: m')).toBe('UncaughtError: m');
});

test("a manual report's message is the application's own and is kept", () => {
  expect(engineNeutralMessage({ error_type: 'manual', error_message: 'Uncaught by the retry loop' })).toBe('Uncaught by the retry loop');
  expect(engineNeutralMessage({ error_type: 'javascript_error', error_message: 'Uncaught null' })).toBe('null');
});

test('the stored message and the fingerprint are of the text without prefix: one throw, one group in every browser', () => {
  const reports = [CHROMIUM[0]!, FIREFOX[0]!, WEBKIT[0]!].map((error_message) =>
    newErrorReport({ error_type: 'javascript_error', error_message, source_url: 'https://shop.example/app.js' }),
  );
  expect(reports.map((report) => report.error_message)).toEqual(['stringError', 'stringError', 'stringError']);
  expect(new Set(reports.map((report) => report.fingerprint)).size).toBe(1);
  expect(newErrorReport({ error_type: 'manual', error_message: 'Uncaught null' }).fingerprint).not.toBe(
    newErrorReport({ error_type: 'manual', error_message: 'null' }).fingerprint,
  );
});
