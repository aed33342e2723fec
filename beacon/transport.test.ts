// @vitest-environment happy-dom
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import type { Endpoints } from './config';
import { createTransport, KEEPALIVE_QUOTA, type TransportState } from './transport';

/** Three endpoints to tell the sends apart by their URL. */
const endpoints: Endpoints = { error: 'https://in.example/api/e', csp: 'https://in.example/api/c', performance: 'https://in.example/api/p' };

const fetchMock = vi.fn<(url: string, init: RequestInit) => Promise<Response>>();
const answer = (status: number, headers: Record<string, string> = {}) => Promise.resolve(new Response(null, { status, headers }));

beforeEach(() => {
  vi.useFakeTimers();
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

test('5xx and network failures are retried with exponential backoff, at most 5 attempts', async () => {
  fetchMock.mockImplementation(() => Promise.reject(new TypeError('Failed to fetch')));
  const transport = createTransport({ _endpoints: endpoints });
  await transport('error', '[]', false);
  const attemptTimes = [Date.now()];
  for (let i = 0; i < 10; i++) {
    const before = fetchMock.mock.calls.length;
    await vi.advanceTimersByTimeAsync(1000);
    while (fetchMock.mock.calls.length == before && Date.now() - attemptTimes[0]! < 300_000) await vi.advanceTimersByTimeAsync(1000);
    if (fetchMock.mock.calls.length > before) attemptTimes.push(Date.now());
  }
  expect(fetchMock).toHaveBeenCalledTimes(5);
  const gaps = attemptTimes.slice(1).map((time, index) => time - attemptTimes[index]!);
  // Each wait is about twice the one before (with jitter between half and all of it).
  expect(gaps[0]).toBeLessThanOrEqual(2000);
  expect(gaps[3]!).toBeGreaterThan(gaps[0]!);
});

test('429 is retried after its Retry-After, and other sends wait for it too', async () => {
  fetchMock.mockImplementationOnce(() => answer(429, { 'retry-after': '30' })).mockImplementation(() => answer(202));
  const transport = createTransport({ _endpoints: endpoints });
  await transport('error', '["a"]', false);
  transport('csp', '["b"]', false);
  await vi.advanceTimersByTimeAsync(29_000);
  expect(fetchMock).toHaveBeenCalledTimes(1);
  await vi.advanceTimersByTimeAsync(1_100);
  expect(fetchMock.mock.calls.map(([url]) => url)).toEqual(['https://in.example/api/e', 'https://in.example/api/e', 'https://in.example/api/c']);
});

test('a 4xx other than 429 is given up at once', async () => {
  fetchMock.mockImplementation(() => answer(400));
  const transport = createTransport({ _endpoints: endpoints });
  await transport('error', '[]', false);
  await vi.advanceTimersByTimeAsync(300_000);
  expect(fetchMock).toHaveBeenCalledTimes(1);
});

test('once blocked, nothing is sent and nothing waiting is retried', async () => {
  fetchMock.mockImplementation(() => answer(503));
  const state: TransportState = { _endpoints: endpoints };
  const transport = createTransport(state);
  await transport('error', '[]', false);
  state._blocked = true;
  transport('error', '[]', false);
  await vi.advanceTimersByTimeAsync(300_000);
  expect(fetchMock).toHaveBeenCalledTimes(1);
});

test('a session snapshot is not retried once a newer one of the same session was sent', async () => {
  fetchMock.mockImplementationOnce(() => answer(500)).mockImplementation(() => answer(202));
  const transport = createTransport({ _endpoints: endpoints });
  // As a session's own serializer tells it (vitalsSession.ts): a body is superseded once a newer one was sent.
  let newest: string;
  const superseded = (body: string) => body != newest;
  const sendSnapshot = (body: string) => transport('performance', (newest = body), false, superseded);
  await sendSnapshot('{"LCP":1}');
  await vi.advanceTimersByTimeAsync(5_000);
  const bodies = () => fetchMock.mock.calls.map(([, init]) => init.body);
  // The retry went out, since nothing newer existed...
  expect(bodies()).toEqual(['{"LCP":1}', '{"LCP":1}']);
  fetchMock.mockImplementationOnce(() => answer(500));
  await sendSnapshot('{"LCP":2}');
  await sendSnapshot('{"LCP":3}');
  await vi.advanceTimersByTimeAsync(300_000);
  // ...but {"LCP":2} failed after {"LCP":3} was sent: retrying it would overwrite newer values.
  expect(bodies()).toEqual(['{"LCP":1}', '{"LCP":1}', '{"LCP":2}', '{"LCP":3}']);
});

test('keepalive is used only while the in-flight keepalive bytes stay within the 64 KiB quota', async () => {
  const pending: Array<() => void> = [];
  fetchMock.mockImplementation(() => new Promise((resolve) => pending.push(() => resolve(new Response(null, { status: 202 })))));
  const transport = createTransport({ _endpoints: endpoints });
  const body = 'x'.repeat(KEEPALIVE_QUOTA / 4);
  for (let i = 0; i < 5; i++) transport('error', body, false);
  expect(fetchMock.mock.calls.map(([, init]) => init.keepalive)).toEqual([true, true, true, true, false]);
  pending.forEach((resolve) => resolve());
  await vi.advanceTimersByTimeAsync(0);
  transport('error', body, false);
  expect(fetchMock.mock.calls[5]![1].keepalive).toBe(true);
});

test('at page exit a body goes out even while sends wait: a failure just before must not hold back the last snapshot', async () => {
  const sendBeacon = vi.fn(() => true);
  vi.stubGlobal('navigator', { sendBeacon });
  // Chromium rejects an in-flight keepalive fetch at pagehide.
  fetchMock.mockImplementation(() => Promise.reject(new TypeError('Failed to fetch')));
  const transport = createTransport({ _endpoints: endpoints });
  let newest = '{"FCP":1}';
  const superseded = (body: string) => body != newest;
  await transport('performance', newest, false, superseded);
  transport('error', '["later"]', false);
  expect(fetchMock).toHaveBeenCalledTimes(1);
  transport('performance', (newest = '{"FCP":1,"LCP":2}'), true, superseded);
  expect(sendBeacon).toHaveBeenCalledWith('https://in.example/api/p', '{"FCP":1,"LCP":2}');
});
