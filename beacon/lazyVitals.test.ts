// @vitest-environment happy-dom
// @vitest-environment-options { "settings": { "disableJavaScriptFileLoading": true, "handleDisabledFileLoadingAsSuccess": true } }
// The second script, beacon.vitals.js, is loaded for real in e2e/; here happy-dom fires its load
// event without fetching it, and its global is a stand-in, so that what beacon.js does around it can be seen.
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import type { Metric } from 'web-vitals';
import { init, type Beacon } from './init';
import type { VitalsScript } from './lazyVitals';
import { scriptOptions } from './scriptOptions';

const fetchMock = vi.fn(async (_url: string, _init: RequestInit) => new Response(null, { status: 202 }));
const registered = vi.fn<VitalsScript>();
let beacon: Beacon | undefined;
let visibility: DocumentVisibilityState = 'visible';

beforeEach(() => {
  vi.useFakeTimers();
  fetchMock.mockClear();
  registered.mockReset();
  visibility = 'visible';
  vi.stubGlobal('fetch', fetchMock);
  vi.stubGlobal('sitebeaconVitals', registered);
  vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => visibility);
  vi.spyOn(document, 'hidden', 'get').mockImplementation(() => visibility == 'hidden');
  document.head.innerHTML = '';
});
afterEach(() => {
  beacon?.stop();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const start = (src = 'https://in.example/beacon.min.js?v=2', nonce = '') => {
  const script = document.createElement('script');
  script.src = src;
  script.nonce = nonce;
  script.dataset.siteKey = 'KEY';
  script.dataset.ingestOrigin = 'https://in.example';
  beacon = init(scriptOptions(script));
};
const injected = () => [...document.head.querySelectorAll('script')];
const hide = () => {
  visibility = 'hidden';
  document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
};
const metric = (name: Metric['name'], value: number) =>
  ({ name, value, rating: 'good', delta: value, id: `v6-${name}`, entries: [{}], navigationType: 'navigate', navigationId: 1 }) as unknown as Metric;

test('beacon.vitals.js is loaded from beside beacon.js when the main thread is idle, with beacon.js nonce', async () => {
  const idle: Array<() => void> = [];
  vi.stubGlobal('requestIdleCallback', (callback: () => void, options: { timeout: number }) => {
    expect(options.timeout).toBeGreaterThan(0);
    idle.push(callback);
  });
  start('https://in.example/beacon.min.js?v=2', 'n0nce');
  // The idle callback is requested from the next task, off the start (docs/performance.md, "The beacon").
  expect(idle).toEqual([]);
  await vi.advanceTimersByTimeAsync(0);
  expect(idle).toHaveLength(1);
  expect(injected()).toEqual([]);
  idle.forEach((callback) => callback());
  expect(injected().map((script) => [script.src, script.nonce])).toEqual([['https://in.example/beacon.vitals.min.js?v=2', 'n0nce']]);
  // Once it has run, web-vitals is registered, reporting as usual on a visible page.
  expect(registered).toHaveBeenCalledTimes(1);
  expect(registered.mock.calls[0]![1]).toBe(false);
});

test('without requestIdleCallback (Safari) it is loaded on a next task', async () => {
  expect(globalThis.requestIdleCallback).toBeUndefined();
  start('https://in.example/beacon.js');
  expect(injected()).toEqual([]);
  // Two tasks on: the one that asks, then the timer it sets (fake timers run that one a millisecond on).
  await vi.advanceTimersByTimeAsync(1);
  expect(injected().map((script) => script.src)).toEqual(['https://in.example/beacon.vitals.js']);
});

test('a page hidden before idle loads it at once, and web-vitals then reports every change', async () => {
  vi.stubGlobal('requestIdleCallback', () => {});
  start();
  hide();
  expect(injected()).toHaveLength(1);
  // A metric registered on a hidden page would otherwise wait for the next hide, which may never come.
  expect(registered.mock.calls[0]![1]).toBe(true);
});

test('on a page hidden before idle, the five metrics web-vitals reports at once are sent without another hide, at the latest on pagehide', async () => {
  vi.stubGlobal('requestIdleCallback', () => {});
  const sendBeacon = vi.fn(() => true);
  vi.stubGlobal('navigator', Object.assign(Object.create(navigator), { sendBeacon }));
  start();
  hide();
  const report = registered.mock.calls[0]![0];
  for (const [name, value] of [['TTFB', 80], ['FCP', 900], ['LCP', 1200], ['CLS', 0.02]] as const) report(metric(name, value));
  // Sent by the flush timer: the page stays hidden, no visibilitychange comes.
  await vi.advanceTimersByTimeAsync(1000);
  const sessions = () => fetchMock.mock.calls.filter(([url]) => url == 'https://in.example/api/performance-sessions/KEY');
  expect(Object.keys(JSON.parse(String(sessions().at(-1)![1].body)).metrics).sort()).toEqual(['CLS', 'FCP', 'LCP', 'TTFB']);
  // An interaction before the hide comes from the Event Timing buffer; the page is then closed.
  report(metric('INP', 180));
  window.dispatchEvent(new Event('pagehide'));
  const [url, body] = sendBeacon.mock.calls.at(-1) as unknown as [string, string];
  expect(url).toBe('https://in.example/api/performance-sessions/KEY');
  expect(Object.keys(JSON.parse(body).metrics).sort()).toEqual(['CLS', 'FCP', 'INP', 'LCP', 'TTFB']);
});

test('it is loaded once, and the metrics it reports are sent in the session', async () => {
  start();
  hide();
  await vi.advanceTimersByTimeAsync(0);
  expect(injected()).toHaveLength(1);
  expect(registered).toHaveBeenCalledTimes(1);
  const report = registered.mock.calls[0]![0];
  report(metric('LCP', 1200));
  report(metric('TTFB', 80));
  await beacon!.flush();
  const sessions = () => fetchMock.mock.calls.filter(([url]) => url == 'https://in.example/api/performance-sessions/KEY');
  expect(sessions()).toHaveLength(1);
  expect(Object.keys(JSON.parse(String(sessions()[0]![1].body)).metrics).sort()).toEqual(['LCP', 'TTFB']);
  // After stop(), what web-vitals still reports goes nowhere.
  beacon!.stop();
  report(metric('CLS', 0.1));
  await vi.advanceTimersByTimeAsync(2000);
  expect(sessions()).toHaveLength(1);
});

test('a script that fails to load, or defines nothing, throws nothing into the page', async () => {
  vi.stubGlobal('sitebeaconVitals', undefined);
  start();
  await vi.advanceTimersByTimeAsync(1);
  expect(injected()).toHaveLength(1);
  expect(() => injected()[0]!.dispatchEvent(new Event('error'))).not.toThrow();
  vi.stubGlobal('sitebeaconVitals', () => {
    throw new Error('web-vitals broke');
  });
  expect(() => injected()[0]!.dispatchEvent(new Event('load'))).not.toThrow();
  await expect(beacon!.flush()).resolves.toBeUndefined();
});
