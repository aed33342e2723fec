// @vitest-environment happy-dom
import { describe, expect, test, vi } from 'vitest';
import { earlyEvents } from './earlyEvents';
import { errors, init, type Beacon, type Capture } from './index';
import { EARLY_QUEUE, EARLY_STUB } from './lib/earlyStub';
import { useFakeNetwork } from './testing/fakeNetwork';

let beacon: Beacon | undefined;
const { sentReports } = useFakeNetwork(() => {
  beacon?.stop();
  beacon = undefined;
  delete (window as unknown as Record<string, unknown>)[EARLY_QUEUE];
});

const reject = (reason: unknown) => {
  const event = new Event('unhandledrejection') as Event & { reason?: unknown };
  event.reason = reason;
  window.dispatchEvent(event);
};
/** What a browser fires for `throw value`: its own text in message (with its engine's prefix), the value in error. */
const throwValue = (value: unknown, message: string) => window.dispatchEvent(new ErrorEvent('error', { error: value, message }));

describe('a thrown or rejected value is described from the value, the same for a throw and a rejection', () => {
  test('a thrown string is the string, whatever prefix the engine put in its message', async () => {
    beacon = init({ siteKey: 'KEY', capture: [errors()] });
    throwValue('stringError', 'Uncaught stringError');
    throwValue('otherError', 'uncaught exception: otherError');
    reject('stringError');
    await vi.advanceTimersByTimeAsync(1000);
    expect(sentReports().map((report) => [report.error_type, report.error_message])).toEqual([
      ['javascript_error', 'stringError'],
      ['javascript_error', 'otherError'],
      ['unhandled_rejection', 'stringError'],
    ]);
  });

  test('a thrown object is its JSON, as the same object rejected', async () => {
    beacon = init({ siteKey: 'KEY', capture: [errors()] });
    throwValue({ code: 'E_CART' }, 'Uncaught [object Object]');
    reject({ code: 'E_PAY' });
    await vi.advanceTimersByTimeAsync(1000);
    expect(sentReports().map((report) => report.error_message)).toEqual(['{"code":"E_CART"}', '{"code":"E_PAY"}']);
  });

  test('null and undefined thrown are named; "Script error." without a value keeps the browser\'s text', async () => {
    beacon = init({ siteKey: 'KEY', capture: [errors()] });
    reject(undefined);
    reject(null);
    window.dispatchEvent(new ErrorEvent('error', { message: 'Script error.' }));
    await vi.advanceTimersByTimeAsync(1000);
    expect(sentReports().map((report) => report.error_message)).toEqual(['undefined', 'null', 'Script error.']);
  });

  test('a rejection with the error event of an image (img.onerror = reject) names the event and the image', async () => {
    beacon = init({ siteKey: 'KEY', capture: [errors()] });
    const image = document.createElement('img');
    image.src = 'https://cdn.example/hero.png';
    const event = new Event('error');
    Object.defineProperty(event, 'target', { value: image });
    reject(event);
    await vi.advanceTimersByTimeAsync(1000);
    expect(sentReports()[0]!.error_message).toBe('{"Event":{"type":"error","target":{"HTMLImageElement":{"src":"https://cdn.example/hero.png"}}}}');
  });

  test('a rejected ErrorEvent stands for its error: name, message and stack', async () => {
    beacon = init({ siteKey: 'KEY', capture: [errors()] });
    reject(new ErrorEvent('error', { error: new RangeError('too far'), message: 'Uncaught RangeError: too far' }));
    await vi.advanceTimersByTimeAsync(1000);
    expect(sentReports()[0]).toMatchObject({ error_name: 'RangeError', error_message: 'too far', stack: expect.stringContaining('too far') });
  });
});

describe('causes', () => {
  test('the cause chain, outermost first, each with name, message and stack; a non-Error cause described', async () => {
    beacon = init({ siteKey: 'KEY', capture: [errors()] });
    const root = new TypeError('socket closed');
    const middle = new Error('fetch failed', { cause: root });
    beacon.captureError(new Error('checkout failed', { cause: middle }));
    beacon.captureError(new Error('save failed', { cause: { status: 409 } }));
    await vi.advanceTimersByTimeAsync(1000);
    const [checkout, save] = sentReports();
    expect(checkout!.causes).toEqual([
      { error_name: 'Error', error_message: 'fetch failed', stack: expect.stringContaining('fetch failed') },
      { error_name: 'TypeError', error_message: 'socket closed', stack: expect.stringContaining('socket closed') },
    ]);
    expect(save!.causes).toEqual([{ error_message: '{"status":409}' }]);
  });

  test("an AggregateError's inner errors, marked aggregate; a cycle of causes and a long chain stop at 5", async () => {
    beacon = init({ siteKey: 'KEY', capture: [errors()] });
    beacon.captureError(new AggregateError([new Error('first'), 'second'], 'all failed'));
    const looping = new Error('loop');
    (looping as { cause?: unknown }).cause = looping;
    beacon.captureError(looping);
    let deep = new Error('level 0');
    for (let level = 1; level <= 8; level++) deep = new Error(`level ${level}`, { cause: deep });
    beacon.captureError(deep);
    await vi.advanceTimersByTimeAsync(1000);
    const [aggregate, loop, chain] = sentReports();
    expect(aggregate!.causes).toEqual([
      { error_name: 'Error', error_message: 'first', stack: expect.any(String), aggregate: true },
      { error_message: 'second', aggregate: true },
    ]);
    expect(loop!.causes).toHaveLength(5);
    expect((chain!.causes as Array<{ error_message: string }>).map((cause) => cause.error_message)).toEqual(['level 7', 'level 6', 'level 5', 'level 4', 'level 3']);
  });

  test('an error without a cause sends no causes field', async () => {
    beacon = init({ siteKey: 'KEY', capture: [errors()] });
    beacon.captureError(new Error('alone'));
    await vi.advanceTimersByTimeAsync(1000);
    expect(sentReports()[0]).not.toHaveProperty('causes');
  });
});

describe("the beacon's own errors", () => {
  test('a capture that throws is reported once, with its stack, and the page never sees it', async () => {
    const broken: Capture = (context) => context._listen('click', () => (null as unknown as { x: () => void }).x());
    beacon = init({ siteKey: 'KEY', capture: [broken] });
    const pageSaw = vi.fn();
    window.addEventListener('error', pageSaw);
    for (let click = 0; click < 3; click++) expect(() => document.body.click()).not.toThrow();
    await vi.advanceTimersByTimeAsync(1000);
    window.removeEventListener('error', pageSaw);
    expect(pageSaw).not.toHaveBeenCalled();
    expect(sentReports()).toEqual([expect.objectContaining({ error_type: 'manual', error_name: 'TypeError', stack: expect.any(String) })]);
  });
});

describe('earlyEvents(): what the early stub kept before the beacon loaded', () => {
  test('the stub queues errors and rejections with their times; the beacon sends them with those times and stops the queue', async () => {
    new Function(EARLY_STUB)();
    const queue = (window as unknown as Record<string, Array<[Event, number]>>)[EARLY_QUEUE]!;
    const thrownAt = Date.now();
    window.dispatchEvent(new ErrorEvent('error', { error: new Error('before the beacon'), message: 'Uncaught Error: before the beacon' }));
    reject('rejected during load');
    expect(queue.map(([event, time]) => [event.type, time])).toEqual([
      ['error', thrownAt],
      ['unhandledrejection', thrownAt],
    ]);
    await vi.advanceTimersByTimeAsync(5000);
    beacon = init({ siteKey: 'KEY', capture: [errors(), earlyEvents()] });
    window.dispatchEvent(new ErrorEvent('error', { error: new Error('after the beacon') }));
    await vi.advanceTimersByTimeAsync(1000);
    expect(queue).toHaveLength(0);
    expect(sentReports().map((report) => [report.error_message, report.timestamp])).toEqual([
      ['before the beacon', thrownAt],
      ['rejected during load', thrownAt],
      ['after the beacon', thrownAt + 5000],
    ]);
  });

  test('the stub keeps at most 100 events, and nothing happens without it', async () => {
    new Function(EARLY_STUB)();
    for (let i = 0; i < 150; i++) reject(`early ${i}`);
    expect((window as unknown as Record<string, unknown[]>)[EARLY_QUEUE]).toHaveLength(100);
    delete (window as unknown as Record<string, unknown>)[EARLY_QUEUE];
    beacon = init({ siteKey: 'KEY', capture: [errors(), earlyEvents()] });
    await vi.advanceTimersByTimeAsync(1000);
    expect(sentReports()).toEqual([]);
  });
});
