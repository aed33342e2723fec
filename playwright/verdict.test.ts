import { expect, test } from 'vitest';
import type { StoredCspReport, StoredErrorReport } from '../collector/index';
import { describeProblem, isFatal } from './problems';
import { noCspViolations, noErrors, receivedCspViolation, receivedError } from './verdict';

// What the collector's read API answers (collector/core/records.ts), as the matchers receive it.
const error = (fields: Partial<StoredErrorReport>): StoredErrorReport => ({
  id: 1,
  site_key: 'k',
  received_at: '2026-11-23T12:00:00.000Z',
  fingerprint: 'f',
  error_type: 'javascript_error',
  error_message: 'cart is empty',
  error_name: 'TypeError',
  source_url: 'http://127.0.0.1:3000/checkout.js',
  line: 3,
  column: 9,
  page_url: 'http://127.0.0.1:3000/cart',
  ...fields,
});

const violation = (fields: Partial<StoredCspReport>): StoredCspReport => ({
  id: 1,
  site_key: 'k',
  received_at: '2026-11-23T12:00:00.000Z',
  report_type: 'csp-violation',
  blocked_host: 'blocked.example',
  effective_directive: 'img-src',
  violated_directive: 'img-src',
  blocked_uri: 'https://blocked.example/pixel.gif',
  document_uri: 'http://127.0.0.1:3000/shop',
  disposition: 'enforce',
  ...fields,
});

test('toHaveNoErrors: the failure lists each error with its message, type, source, line and page', () => {
  const verdict = noErrors([error({}), error({ error_type: 'unhandled_rejection', error_name: undefined, error_message: '{"code":"E_PAYMENT"}', source_url: undefined, line: undefined, column: undefined, count: 3 })]);
  expect(verdict.pass).toBe(false);
  // Errors stay stored: waiting cannot make "no errors" true.
  expect(verdict.final).toBe(true);
  expect(verdict.expected).toBe('no error reports');
  expect(verdict.received).toBe(
    '2 error reports\n' +
      '  1. TypeError: cart is empty\n' +
      '     type javascript_error, source http://127.0.0.1:3000/checkout.js:3:9, page http://127.0.0.1:3000/cart\n' +
      '  2. {"code":"E_PAYMENT"} (3 times)\n' +
      '     type unhandled_rejection, source no source, page http://127.0.0.1:3000/cart',
  );
});

test('toHaveNoErrors passes on none, and may still change (a report may be on its way)', () => {
  expect(noErrors([])).toEqual({ pass: true, final: false, expected: 'no error reports', received: 'no error reports' });
});

test('a long list names the first ten and counts the rest', () => {
  const errors = Array.from({ length: 13 }, (_, index) => error({ error_message: `storm ${index}` }));
  const { received } = noErrors(errors);
  expect(received).toContain('13 error reports');
  expect(received).toContain('10. TypeError: storm 9');
  expect(received).not.toContain('storm 10');
  expect(received.endsWith('… and 3 more')).toBe(true);
});

test('toHaveReceivedError matches the message as a substring or a RegExp, and the type exactly', () => {
  const errors = [error({}), error({ error_type: 'resource_error', error_message: 'img failed to load', error_name: undefined })];
  expect(receivedError(errors, { message: 'cart is' }).pass).toBe(true);
  expect(receivedError(errors, { message: /^cart is empty$/ }).pass).toBe(true);
  expect(receivedError(errors, { message: 'cart', type: 'javascript_error' }).pass).toBe(true);
  expect(receivedError(errors, { message: 'cart', type: 'resource_error' }).pass).toBe(false);
  expect(receivedError(errors, { type: 'resource_error' }).pass).toBe(true);
  expect(receivedError(errors).pass).toBe(true);
  expect(receivedError([]).pass).toBe(false);
});

test('toHaveReceivedError: the failure says what was asked and lists what was received instead', () => {
  const verdict = receivedError([error({})], { message: 'payment declined', type: 'javascript_error' });
  expect(verdict).toMatchObject({ pass: false, final: false, expected: 'an error report with message "payment declined" and type javascript_error' });
  expect(verdict.received).toBe(
    '1 error report, none matching\n' +
      '  1. TypeError: cart is empty\n' +
      '     type javascript_error, source http://127.0.0.1:3000/checkout.js:3:9, page http://127.0.0.1:3000/cart',
  );
  expect(receivedError([], { message: /declined/i }).expected).toBe('an error report with message /declined/i');
  expect(receivedError([], {}).received).toBe('no error reports');
});

test('toHaveReceivedError under .not: the message lists the matching reports', () => {
  const verdict = receivedError([error({}), error({ error_message: 'other' })], { message: 'cart' });
  expect(verdict.pass).toBe(true);
  // Once received, a report stays: `.not` fails at once instead of waiting.
  expect(verdict.final).toBe(true);
  expect(verdict.received).toMatch(/^1 matching error report\n {2}1\. TypeError: cart is empty/);
});

test('toHaveNoCspViolations: the failure lists directive, blocked URI, source, page and disposition', () => {
  const verdict = noCspViolations([
    violation({}),
    violation({ effective_directive: 'script-src-elem', violated_directive: 'script-src', blocked_uri: 'inline', source_file: 'http://127.0.0.1:3000/shop', line_number: 12, column_number: 5, disposition: 'report' }),
  ]);
  expect(verdict.pass).toBe(false);
  expect(verdict.received).toBe(
    '2 CSP violations\n' +
      '  1. img-src blocked https://blocked.example/pixel.gif\n' +
      '     source no source, page http://127.0.0.1:3000/shop, enforce\n' +
      '  2. script-src-elem blocked inline\n' +
      '     source http://127.0.0.1:3000/shop:12:5, page http://127.0.0.1:3000/shop, report-only',
  );
  expect(noCspViolations([]).pass).toBe(true);
});

test('toHaveReceivedCspViolation matches the effective directive, or the first word of the violated one, and the blocked URI', () => {
  const reports = [violation({}), violation({ effective_directive: 'script-src-elem', violated_directive: "script-src 'self'", blocked_uri: 'eval' })];
  expect(receivedCspViolation(reports, { directive: 'img-src', blockedUri: 'blocked.example' }).pass).toBe(true);
  expect(receivedCspViolation(reports, { directive: 'script-src' }).pass).toBe(true);
  expect(receivedCspViolation(reports, { directive: 'script-src-elem', blockedUri: /^eval$/ }).pass).toBe(true);
  expect(receivedCspViolation(reports, { directive: 'img-src', blockedUri: 'eval' }).pass).toBe(false);
  const failed = receivedCspViolation(reports, { directive: 'connect-src' });
  expect(failed.expected).toBe('a CSP violation with directive connect-src');
  expect(failed.received).toMatch(/^2 CSP violations, none matching\n {2}1\. img-src blocked https:\/\/blocked\.example\/pixel\.gif/);
});

test('problems say what kept the beacon from reporting and how to fix it', () => {
  const blocked = describeProblem({
    kind: 'blocked',
    page: 'http://127.0.0.1:3000/cart',
    collector: 'http://127.0.0.1:4000',
    directive: 'connect-src',
    blockedUri: 'http://127.0.0.1:4000/api/test-connectivity',
    policy: "default-src 'self'",
  });
  expect(blocked).toBe(
    'the page http://127.0.0.1:3000/cart cannot report: its Content-Security-Policy blocks the collector ' +
      '(http://127.0.0.1:4000/api/test-connectivity violates "connect-src"). Allow http://127.0.0.1:4000 in connect-src ' +
      "(policy: default-src 'self')",
  );
  expect(describeProblem({ kind: 'refused', url: 'http://c/api/error-reports/k', status: 403, detail: 'origin_not_allowed: origin http://x is not allowed' })).toBe(
    'the collector refused a report (403 origin_not_allowed: origin http://x is not allowed) at http://c/api/error-reports/k',
  );
  expect(describeProblem({ kind: 'own', page: 'http://x/', detail: 'Error: boom at http://x/app.js:1:1' })).toBe(
    'the beacon itself failed on the page http://x/: Error: boom at http://x/app.js:1:1',
  );
  expect(describeProblem({ kind: 'unreachable', page: 'http://x/', collector: 'http://127.0.0.1:4000', detail: 'TypeError: Failed to fetch' })).toBe(
    'the page http://x/ cannot reach the collector http://127.0.0.1:4000: TypeError: Failed to fetch',
  );
  expect(describeProblem({ kind: 'failed', url: 'http://c/api/csp-reports/k', detail: 'net::ERR_CONNECTION_REFUSED' })).toBe(
    'a report did not reach the collector (net::ERR_CONNECTION_REFUSED) at http://c/api/csp-reports/k',
  );
  expect(isFatal({ kind: 'own', page: '', detail: '' }, true)).toBe(true);
  expect(isFatal({ kind: 'own', page: '', detail: '' }, false)).toBe(false);
  expect(describeProblem({ kind: 'missing', page: 'http://x/' })).toMatch(/^the page http:\/\/x\/ has no beacon: it loaded before the `beacon` fixture was set up/);
  // The page's own setup fails the matchers always; the beacon's own errors only when asked.
  expect(isFatal({ kind: 'blocked', page: '', collector: '', directive: '', blockedUri: '', policy: '' }, false)).toBe(true);
  expect(isFatal({ kind: 'refused', url: '', status: 403, detail: '' }, false)).toBe(false);
  expect(isFatal({ kind: 'failed', url: '', detail: '' }, true)).toBe(true);
});
