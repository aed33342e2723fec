import { afterEach, beforeEach, vi } from 'vitest';

/**
 * The one boundary the beacon's unit tests replace: the network (e2e/ sends for real, in three
 * engines under e2e/browsers/). Before each test: fake timers and a `fetch` that answers 202;
 * after it, `cleanUp` (stop the test's beacon), then real timers and globals again.
 *
 * @example
 * let beacon: Beacon | undefined;
 * const { sentReports } = useFakeNetwork(() => beacon?.stop());
 */
export const useFakeNetwork = (cleanUp: () => void) => {
  const fetchMock = vi.fn(async (_url: string, _init: RequestInit) => new Response(null, { status: 202 }));
  beforeEach(() => {
    vi.useFakeTimers();
    fetchMock.mockClear();
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    cleanUp();
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });
  /** Each request's URL and its body, parsed. */
  const sent = () => fetchMock.mock.calls.map(([url, requestInit]) => ({ url, body: JSON.parse(String(requestInit.body)) as unknown[] }));
  /** Every error report sent, in order, whatever request carried it. */
  const sentReports = () => sent().flatMap(({ body }) => body) as Array<Record<string, unknown>>;
  return { fetchMock, sent, sentReports };
};
