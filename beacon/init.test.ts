// @vitest-environment happy-dom
import { describe, expect, test, vi } from 'vitest';
import { errors, init, type Beacon } from './index';
import { useFakeNetwork } from './testing/fakeNetwork';

let beacon: Beacon | undefined;
const { fetchMock, sent, sentReports } = useFakeNetwork(() => {
  beacon?.stop();
  beacon = undefined;
});

const throwInPage = (message: string, filename = 'https://shop.example/app.js', lineno = 3) => {
  const error = new TypeError(message);
  window.dispatchEvent(new ErrorEvent('error', { error, message, filename, lineno, colno: 7 }));
};

describe('errors()', () => {
  test('an uncaught error is posted as the wire format\'s error report after the flush delay', async () => {
    beacon = init({ siteKey: 'KEY', ingestOrigin: 'https://in.example', capture: [errors()] });
    throwInPage('cart is empty');
    expect(fetchMock).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1000);
    expect(sent()).toEqual([
      {
        url: 'https://in.example/api/error-reports/KEY',
        body: [
          expect.objectContaining({
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
        ],
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
    expect(sentReports().map((report) => [report.error_message, report.count])).toEqual([
      ['same', 5],
      ['other', undefined],
    ]);
  });

  test('a page throwing 10,000 distinct errors sends a small bounded number of reports', async () => {
    beacon = init({ siteKey: 'KEY', capture: [errors()] });
    for (let i = 0; i < 10_000; i++) throwInPage(`error ${i}`);
    await vi.advanceTimersByTimeAsync(1000);
    for (let i = 0; i < 100; i++) throwInPage(`later ${i}`);
    await vi.advanceTimersByTimeAsync(5000);
    expect(sentReports()).toHaveLength(25);
  });

  test('a failed image load is a resource_error with the failed URL, caught in the capture phase', async () => {
    beacon = init({ siteKey: 'KEY', capture: [errors()] });
    const image = document.createElement('img');
    image.src = 'https://cdn.example/missing.png#frag';
    document.body.append(image);
    image.dispatchEvent(new Event('error'));
    await vi.advanceTimersByTimeAsync(1000);
    expect(sentReports()).toEqual([
      expect.objectContaining({ error_type: 'resource_error', error_message: 'img failed to load', source_url: 'https://cdn.example/missing.png' }),
    ]);
  });

  test('"Script error." without detail is sent once per page, marked cross-origin', async () => {
    beacon = init({ siteKey: 'KEY', capture: [errors()] });
    for (let i = 0; i < 3; i++) window.dispatchEvent(new ErrorEvent('error', { message: 'Script error.' }));
    await vi.advanceTimersByTimeAsync(1000);
    window.dispatchEvent(new ErrorEvent('error', { message: 'Script error.' }));
    await vi.advanceTimersByTimeAsync(1000);
    expect(sentReports()).toEqual([expect.objectContaining({ error_message: 'Script error.', cross_origin: true })]);
  });

  test('an unhandled rejection with a plain object reason is described as JSON, not [object Object]', async () => {
    beacon = init({ siteKey: 'KEY', capture: [errors()] });
    const event = new Event('unhandledrejection') as Event & { reason?: unknown };
    event.reason = { code: 42 };
    window.dispatchEvent(event);
    await vi.advanceTimersByTimeAsync(1000);
    expect(sentReports()[0]).toMatchObject({ error_type: 'unhandled_rejection', error_message: '{"code":42}' });
  });

  test('no fragment and no credentials leave the page, in the stack, the message, the source or the page URL', async () => {
    history.replaceState(null, '', '/cart?step=2#access_token=secret');
    beacon = init({ siteKey: 'KEY', capture: [errors()] });
    const error = new TypeError('cannot load https://shop.example/chunk.js#v=2');
    error.stack = [
      'TypeError: cannot load https://shop.example/chunk.js#v=2',
      '    at Cart.#total (https://user:pw@shop.example/app.js#v=2:3:9)',
      '    at https://shop.example/cart?step=2#access_token=secret:14:15',
    ].join('\n');
    window.dispatchEvent(new ErrorEvent('error', { error, message: error.message, filename: 'https://shop.example/app.js#v=2', lineno: 3, colno: 9 }));
    await vi.advanceTimersByTimeAsync(1000);
    const [report] = sentReports();
    expect(report).toMatchObject({
      error_message: 'cannot load https://shop.example/chunk.js',
      source_url: 'https://shop.example/app.js',
      stack: [
        'TypeError: cannot load https://shop.example/chunk.js',
        '    at Cart.#total (https://shop.example/app.js:3:9)',
        '    at https://shop.example/cart?step=2:14:15',
      ].join('\n'),
    });
    expect(report!.page_url).toMatch(/\/cart\?step=2$/);
    expect(JSON.stringify(sentReports())).not.toMatch(/#v=|access_token|pw@/);
  });

  test('what the browser did not give is left out: no empty stack or name, no line or column 0, no empty source', async () => {
    beacon = init({ siteKey: 'KEY', capture: [errors()] });
    const error = new Error('no detail');
    error.stack = '';
    error.name = '';
    window.dispatchEvent(new ErrorEvent('error', { error, message: 'no detail', filename: '', lineno: 0, colno: 0 }));
    await vi.advanceTimersByTimeAsync(1000);
    const [report] = sentReports();
    expect(Object.keys(report!).sort()).toEqual(['error_message', 'error_type', 'page_url', 'session_id', 'timestamp']);
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
    expect(sentReports()[0]).toMatchObject({ error_type: 'manual', error_message: 'caught by the app', error_name: 'RangeError' });
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
    expect(sentReports().map((report) => report.error_message)).toEqual(['paid with [card]', 'break me']);
    expect(beforeSend).toHaveBeenCalledWith(expect.objectContaining({ error_message: 'drop me' }), 'error');
  });

  test('pagehide flushes with sendBeacon: a text/plain JSON string body, no fetch', () => {
    const sendBeacon = vi.fn(() => true);
    vi.stubGlobal('navigator', Object.assign(Object.create(navigator), { sendBeacon }));
    beacon = init({ siteKey: 'KEY', ingestOrigin: 'https://in.example' });
    beacon.captureError(new Error('before leaving'));
    window.dispatchEvent(new Event('pagehide'));
    expect(sendBeacon).toHaveBeenCalledTimes(1);
    const [url, body] = sendBeacon.mock.calls[0] as unknown as [string, string];
    expect(url).toBe('https://in.example/api/error-reports/KEY');
    expect(typeof body).toBe('string');
    expect(JSON.parse(body)).toEqual([expect.objectContaining({ error_message: 'before leaving' })]);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  test('when sendBeacon refuses (over its quota) the exit flush falls back to fetch keepalive', () => {
    vi.stubGlobal('navigator', Object.assign(Object.create(navigator), { sendBeacon: () => false }));
    beacon = init({ siteKey: 'KEY' });
    beacon.captureError(new Error('x'));
    window.dispatchEvent(new Event('pagehide'));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(fetchMock.mock.calls[0]![1]).toMatchObject({ keepalive: true });
  });

  test('a large batch is split into bodies under the keepalive budget', async () => {
    beacon = init({ siteKey: 'KEY' });
    for (let i = 0; i < 20; i++) beacon.captureError(new Error(`${i} ${'x'.repeat(990)}`));
    await beacon.flush();
    const bodies = fetchMock.mock.calls.map(([, requestInit]) => String(requestInit.body));
    expect(bodies.length).toBeGreaterThan(1);
    for (const body of bodies) expect(new TextEncoder().encode(body).length).toBeLessThanOrEqual(16384);
    expect(sentReports()).toHaveLength(20);
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
    vi.stubGlobal('navigator', Object.create(null));
    beacon = init({ siteKey: 'KEY', capture: [errors()] });
    throwInPage('no transport');
    await vi.advanceTimersByTimeAsync(1000);
    window.dispatchEvent(new Event('pagehide'));
    await expect(beacon.flush()).resolves.toBeUndefined();
  });
});
