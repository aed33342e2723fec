import { until as untilHolds } from '../../collector/testing/until';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Reads `read()` until `done(value)` holds or `timeout` passes, then until the value has not
 * changed for `quiet` ms (so that a late duplicate or a last update is seen too). Returns the last
 * value; the caller asserts on it. Polling, not sleeping: a fast browser costs only `quiet`.
 *
 * @example
 * const records = await pollStored(() => world.stored(siteKey, 'csp'), (r) => r.length >= 3, { timeout: 20_000 });
 */
export const pollStored = async <T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  { timeout = 20_000, quiet = 1_500, interval = 200 }: { timeout?: number; quiet?: number; interval?: number } = {},
): Promise<T> => {
  const deadline = Date.now() + timeout;
  let value = await read();
  while (!done(value) && Date.now() < deadline) {
    await sleep(interval);
    value = await read();
  }
  let seen = JSON.stringify(value);
  let since = Date.now();
  while (Date.now() - since < quiet && Date.now() < deadline + quiet) {
    await sleep(interval);
    value = await read();
    const now = JSON.stringify(value);
    if (now != seen) {
      seen = now;
      since = Date.now();
    }
  }
  return value;
};

/**
 * Polls `check` (e.g. a script in the page) until it returns true.
 *
 * @example
 * await until(() => browser.evaluate<boolean>("return 'sitebeacon' in window"), 'the beacon to start');
 */
export const until = (check: () => Promise<boolean>, what: string, timeout = 30_000) => untilHolds(check, { what, ms: timeout, everyMs: 100 });
