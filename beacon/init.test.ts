// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { errors, init, type Beacon } from './index';

// The network is the one boundary replaced here; e2e/ sends for real.
const fetchMock = vi.fn(async (_url: string, _init: RequestInit) => new Response(null, { status: 202 }));
const sent = () =>
  fetchMock.mock.calls.map(([url, requestInit]) => ({ url, body: JSON.parse(String(requestInit.body)) }));

let beacon: Beacon | undefined;

beforeEach(() => {
  vi.useFakeTimers();
  fetchMock.mockClear();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  beacon?.stop();
  beacon = undefined;
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const throwInPage = (message: string, filename = 'https://shop.example/app.js', lineno = 3) => {
  const error = new TypeError(message);
  window.dispatchEvent(new ErrorEvent('error', { error, message, filename, lineno, colno: 7 }));
};

describe('errors()', () => {
  test('an uncaught error is posted as the design error report after the flush delay', async () => {
    beacon = init({ siteKey: 'KEY', ingestOrigin: 'https://in.example', capture: [errors()] });
    throwInPage('cart is empty');
    expect(fetchMock).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1000);
    expect(sent()).toEqual([
      {
        url: 'https://in.example/api/error-reports/KEY',
        body: expect.objectContaining({
          error_type: 'javascript_error',
          error_message: 'cart is empty',
          error_name: 'TypeError',
          source_url: 'https://shop.example/app.js',
          line: 3,
          column: 7,
          page_url: expect.any(String),
          session_id: expect.any(String),
          timestamp: expect.any(Number),
        }),
      },
    ]);
    const requestInit = fetchMock.mock.calls[0]![1];
    expect(requestInit).toMatchObject({ method: 'POST', keepalive: true, credentials: 'omit' });
    expect(requestInit.headers).toEqual({ 'Content-Type': 'application/json' });
  });

  test('identical errors are folded into one report with a count', async () => {
    beacon = init({ siteKey: 'KEY', capture: [errors()] });
    for (let i = 0; i < 5; i++) throwInPage('same');
    throwInPage('other');
    await vi.advanceTimersByTimeAsync(1000);
    expect(sent()).toHaveLength(1);
    const batch = sent()[0]!.body as Array<{ error_message: string; count?: number }>;
    expect(batch.map((report) => [report.error_message, report.count])).toEqual([
      ['same', 5],
      ['other', undefined],
    ]);
  });

  test('a page throwing 10,000 distinct errors sends a bounded number of reports', async () => {
    beacon = init({ siteKey: 'KEY', capture: [errors()] });
    for (let i = 0; i < 10_000; i++) throwInPage(`error ${i}`);
    await vi.advanceTimersByTimeAsync(1000);
    const reports = sent().flatMap(({ body }) => body as unknown[]);
    expect(reports).toHaveLength(100);
    // Batches respect the collector's limit of 50 per request.
    expect(sent().every(({ body }) => (body as unknown[]).length <= 50)).toBe(true);
  });

  test('an unhandled rejection with a plain object reason is described as JSON, not [object Object]', async () => {
    beacon = init({ siteKey: 'KEY', capture: [errors()] });
    const event = new Event('unhandledrejection') as Event & { reason?: unknown };
    event.reason = { code: 42 };
    window.dispatchEvent(event);
    await vi.advanceTimersByTimeAsync(1000);
    expect(sent()[0]!.body).toMatchObject({ error_type: 'unhandled_rejection', error_message: '{"code":42}' });
  });

  test('stop() removes the listeners', async () => {
    beacon = init({ siteKey: 'KEY', capture: [errors()] });
    beacon.stop();
    throwInPage('after stop');
    await vi.advanceTimersByTimeAsync(2000);
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

describe('init()', () => {
  test('captureError reports a manual error; flush sends at once', async () => {
    beacon = init({ siteKey: 'KEY' });
    beacon.captureError(new RangeError('caught by the app'));
    await beacon.flush();
    expect(sent()[0]!.body).toMatchObject({ error_type: 'manual', error_message: 'caught by the app', error_name: 'RangeError' });
  });

  test('beforeSend may edit or drop a report, and its own exception is contained', async () => {
    const beforeSend = vi.fn((report: object) => {
      const { error_message } = report as { error_message: string };
      if (error_message == 'drop me') return null;
      if (error_message == 'break me') throw new Error('bug in beforeSend');
      return { ...report, error_message: error_message.replace(/\d{4}-\d{4}/, '[card]') };
    });
    beacon = init({ siteKey: 'KEY', beforeSend });
    beacon.captureError(new Error('drop me'));
    beacon.captureError(new Error('paid with 4111-1111'));
    beacon.captureError(new Error('break me'));
    await beacon.flush();
    expect((sent()[0]!.body as Array<{ error_message: string }>).map((report) => report.error_message)).toEqual([
      'paid with [card]',
      'break me',
    ]);
  });

  test('going hidden flushes with sendBeacon as text/plain JSON', () => {
    const sendBeacon = vi.fn(() => true);
    vi.stubGlobal('navigator', Object.assign(Object.create(navigator), { sendBeacon }));
    beacon = init({ siteKey: 'KEY', ingestOrigin: 'https://in.example' });
    beacon.captureError(new Error('before leaving'));
    window.dispatchEvent(new Event('pagehide'));
    expect(sendBeacon).toHaveBeenCalledTimes(1);
    const [url, body] = sendBeacon.mock.calls[0] as unknown as [string, string];
    expect(url).toBe('https://in.example/api/error-reports/KEY');
    expect(typeof body).toBe('string');
    expect(JSON.parse(body)).toMatchObject({ error_message: 'before leaving' });
    expect(fetchMock).not.toHaveBeenCalled();
  });

  test('a fetch that throws or rejects never reaches the page', async () => {
    fetchMock.mockImplementationOnce(() => {
      throw new TypeError('blocked by CSP');
    });
    beacon = init({ siteKey: 'KEY', capture: [errors()] });
    beacon.captureError(new Error('first'));
    await expect(beacon.flush()).resolves.toBeUndefined();
    fetchMock.mockImplementationOnce(() => Promise.reject(new TypeError('Failed to fetch')));
    beacon.captureError(new Error('second'));
    await expect(beacon.flush()).resolves.toBeUndefined();
  });

  test('with no fetch and no sendBeacon at all, nothing throws', async () => {
    vi.stubGlobal('fetch', undefined);
    beacon = init({ siteKey: 'KEY', capture: [errors()] });
    throwInPage('no transport');
    await vi.advanceTimersByTimeAsync(1000);
    await expect(beacon.flush()).resolves.toBeUndefined();
  });
});
