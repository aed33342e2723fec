// @vitest-environment happy-dom
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { csp, init, type Beacon } from './index';

const fetchMock = vi.fn(async (_url: string, _init: RequestInit) => new Response(null, { status: 202 }));
let beacon: Beacon | undefined;

beforeEach(() => {
  fetchMock.mockClear();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  beacon?.stop();
  vi.unstubAllGlobals();
});

const violate = (fields: Partial<SecurityPolicyViolationEvent>) => {
  const event = new Event('securitypolicyviolation', { bubbles: true });
  Object.assign(event, {
    documentURI: 'https://user:pw@shop.example/cart?step=2#top',
    referrer: '',
    violatedDirective: 'img-src',
    effectiveDirective: 'img-src',
    originalPolicy: "img-src 'self'",
    disposition: 'enforce',
    blockedURI: 'https://cdn.example/pixel.gif',
    sourceFile: 'https://shop.example/app.js',
    lineNumber: 3,
    columnNumber: 9,
    statusCode: 200,
    sample: '',
    ...fields,
  });
  document.dispatchEvent(event);
};

test('a violation is sent in the CSP2 shape with every field the event carries', async () => {
  beacon = init({ siteKey: 'KEY', ingestOrigin: 'https://in.example', capture: [csp()] });
  violate({});
  await beacon.flush();
  expect(fetchMock).toHaveBeenCalledTimes(1);
  expect(fetchMock.mock.calls[0]![0]).toBe('https://in.example/api/csp-reports/KEY');
  expect(JSON.parse(String(fetchMock.mock.calls[0]![1].body))).toEqual({
    'csp-report': {
      'document-uri': 'https://shop.example/cart?step=2',
      referrer: '',
      'violated-directive': 'img-src',
      'effective-directive': 'img-src',
      'original-policy': "img-src 'self'",
      disposition: 'enforce',
      'blocked-uri': 'https://cdn.example/pixel.gif',
      'source-file': 'https://shop.example/app.js',
      'line-number': 3,
      'column-number': 9,
      'status-code': 200,
      'script-sample': '',
    },
  });
});

test('the same violation twice in a flush is sent once', async () => {
  beacon = init({ siteKey: 'KEY', capture: [csp()] });
  violate({});
  violate({});
  await beacon.flush();
  expect(fetchMock).toHaveBeenCalledTimes(1);
});

test('violations from browser extensions are dropped', async () => {
  beacon = init({ siteKey: 'KEY', capture: [csp()] });
  violate({ blockedURI: 'chrome-extension://abcdef/inject.js' });
  violate({ sourceFile: 'moz-extension://abcdef/content.js' });
  await beacon.flush();
  expect(fetchMock).not.toHaveBeenCalled();
});

test('a violation against the collector is never reported, and an enforced one stops all sending', async () => {
  beacon = init({ siteKey: 'KEY', ingestOrigin: 'https://in.example', capture: [csp()] });
  violate({ blockedURI: 'https://in.example/api/error-reports/KEY', effectiveDirective: 'connect-src', disposition: 'report' });
  await beacon.flush();
  expect(fetchMock).not.toHaveBeenCalled();
  // Report-only: the collector is still reachable.
  beacon.captureError(new Error('still sent'));
  await beacon.flush();
  expect(fetchMock).toHaveBeenCalledTimes(1);

  violate({ blockedURI: 'https://in.example', effectiveDirective: 'connect-src' });
  beacon.captureError(new Error('not sent: blocked'));
  violate({});
  await beacon.flush();
  expect(fetchMock).toHaveBeenCalledTimes(1);
});

test('an origin that merely starts like the collector is not the collector', async () => {
  beacon = init({ siteKey: 'KEY', ingestOrigin: 'https://in.example', capture: [csp()] });
  violate({ blockedURI: 'https://in.example.evil.test/x.js' });
  await beacon.flush();
  expect(fetchMock).toHaveBeenCalledTimes(1);
});
