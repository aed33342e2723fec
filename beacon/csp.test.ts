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

/**
 * A violation event as browsers make it: the CSP fields are attributes of the event's prototype,
 * enumerable (WebIDL), as Object.keys(SecurityPolicyViolationEvent.prototype) shows in Chromium.
 */
const violate = (fields: Partial<SecurityPolicyViolationEvent>) => {
  const attributes = {
    documentURI: 'https://user:pw@shop.example/cart?step=2#top',
    referrer: '',
    blockedURI: 'https://cdn.example/pixel.gif',
    violatedDirective: 'img-src',
    effectiveDirective: 'img-src',
    originalPolicy: "img-src 'self'",
    disposition: 'enforce',
    sourceFile: 'https://shop.example/app.js',
    statusCode: 200,
    lineNumber: 3,
    columnNumber: 9,
    sample: 'x',
    ...fields,
  };
  const event = new Event('securitypolicyviolation', { bubbles: true });
  Object.setPrototypeOf(event, Object.assign(Object.create(Event.prototype), attributes));
  document.dispatchEvent(event);
};

const sentReport = (call = 0) => JSON.parse(String(fetchMock.mock.calls[call]![1].body))['csp-report'];

test('a violation is sent in the CSP2 shape with every field the event carries', async () => {
  beacon = init({ siteKey: 'KEY', ingestOrigin: 'https://in.example', capture: [csp()] });
  violate({ referrer: 'https://search.example/?q=shop#results' });
  await beacon.flush();
  expect(fetchMock).toHaveBeenCalledTimes(1);
  expect(fetchMock.mock.calls[0]![0]).toBe('https://in.example/api/csp-reports/KEY');
  expect(JSON.parse(String(fetchMock.mock.calls[0]![1].body))).toEqual({
    'csp-report': {
      'document-uri': 'https://shop.example/cart?step=2',
      referrer: 'https://search.example/?q=shop',
      'violated-directive': 'img-src',
      'effective-directive': 'img-src',
      'original-policy': "img-src 'self'",
      disposition: 'enforce',
      'blocked-uri': 'https://cdn.example/pixel.gif',
      'source-file': 'https://shop.example/app.js',
      'line-number': 3,
      'column-number': 9,
      'status-code': 200,
      'script-sample': 'x',
    },
  });
});

test('what the browser left empty or zero ("unknown") is left out, not sent as "" or 0', async () => {
  beacon = init({ siteKey: 'KEY', capture: [csp()] });
  // WebKit over HTTPS: status-code 0; Firefox: no sample; an inline violation: no source file, no position.
  violate({ sourceFile: '', lineNumber: 0, columnNumber: 0, sample: '', referrer: '', statusCode: 0, blockedURI: 'inline' });
  await beacon.flush();
  expect(sentReport()).toEqual({
    'document-uri': 'https://shop.example/cart?step=2',
    'violated-directive': 'img-src',
    'effective-directive': 'img-src',
    'original-policy': "img-src 'self'",
    disposition: 'enforce',
    'blocked-uri': 'inline',
  });
});

test('a field this browser adds to the event is sent too, under its CSP2-style name', async () => {
  beacon = init({ siteKey: 'KEY', capture: [csp()] });
  violate({ blockedURL: 'https://cdn.example/pixel.gif#x' } as Partial<SecurityPolicyViolationEvent>);
  await beacon.flush();
  expect(sentReport()['blocked-url']).toBe('https://cdn.example/pixel.gif');
});

test('the same violation twice in a flush is sent once', async () => {
  beacon = init({ siteKey: 'KEY', capture: [csp()] });
  violate({});
  violate({});
  await beacon.flush();
  expect(fetchMock).toHaveBeenCalledTimes(1);
});

test("violations from browser extensions are sent as they are: the collector's noise rule drops them", async () => {
  beacon = init({ siteKey: 'KEY', capture: [csp()] });
  violate({ blockedURI: 'chrome-extension://abcdef/inject.js' });
  violate({ sourceFile: 'moz-extension://abcdef/content.js' });
  await beacon.flush();
  expect(fetchMock).toHaveBeenCalledTimes(2);
  expect(sentReport(0)['blocked-uri']).toBe('chrome-extension://abcdef/inject.js');
  expect(sentReport(1)['source-file']).toBe('moz-extension://abcdef/content.js');
});

test('a violation against the collector is never reported, and one enforced in connect-src stops all sending', async () => {
  beacon = init({ siteKey: 'KEY', ingestOrigin: 'https://in.example', capture: [csp()] });
  violate({ blockedURI: 'https://in.example/api/error-reports/KEY', effectiveDirective: 'connect-src', disposition: 'report' });
  await beacon.flush();
  expect(fetchMock).not.toHaveBeenCalled();
  // Report-only: the collector is still reachable.
  beacon.captureError(new Error('still sent'));
  await beacon.flush();
  expect(fetchMock).toHaveBeenCalledTimes(1);

  // A script or image from the collector's host blocked by script-src or img-src (a path-specific
  // script-src that allows beacon.js only, say) is not reported, and sending goes on.
  violate({ blockedURI: 'https://in.example/beacon.vitals.js', effectiveDirective: 'script-src-elem' });
  beacon.captureError(new Error('sent too'));
  await beacon.flush();
  expect(fetchMock).toHaveBeenCalledTimes(2);

  violate({ blockedURI: 'https://in.example', effectiveDirective: 'connect-src' });
  beacon.captureError(new Error('not sent: blocked'));
  violate({});
  await beacon.flush();
  expect(fetchMock).toHaveBeenCalledTimes(2);
});

test('an origin that merely starts like the collector is not the collector', async () => {
  beacon = init({ siteKey: 'KEY', ingestOrigin: 'https://in.example', capture: [csp()] });
  violate({ blockedURI: 'https://in.example.evil.test/x.js' });
  await beacon.flush();
  expect(fetchMock).toHaveBeenCalledTimes(1);
});
