/** True only in sitebeacon/playwright's build of the beacon (rollup.config.mjs): the product's builds drop what it guards. */
declare const __SITEBEACON_FIXTURE__: boolean;

const noop = () => {};

/** What monitor() hands an error it contained: see whenContained. */
let onContained: (error: unknown) => void = noop;

/**
 * Sets what monitor() does with the next error it contains, once: `init()` reports it as the
 * beacon's own error, so a beacon broken on some page says so instead of going quiet, and the
 * ones after it are contained silently. The handler must not throw (init guards it with monitor()
 * itself). The last `init()` of a page sets it. In sitebeacon/playwright's build every contained
 * error goes to the test instead (playwright/page/fixtureBeacon.ts listens at the symbol), which
 * fails on the beacon's own errors.
 *
 * @example
 * whenContained((error) => console.warn('sitebeacon', error));
 */
export const whenContained = (handler: (error: unknown) => void) => {
  onContained = handler;
};

const contain = (error: unknown) => {
  if (__SITEBEACON_FIXTURE__) {
    (globalThis as unknown as Record<symbol, ((error: unknown) => void) | undefined>)[Symbol.for('sitebeacon.contained')]?.(error);
  } else {
    // Once: the handler is reset before it runs.
    const handler = onContained;
    onContained = noop;
    handler(error);
  }
};

/**
 * Wraps a callback the beacon installs (listener, timer, network callback) so that nothing it
 * throws, synchronously or as a rejected promise, ever reaches the host page; what it throws goes
 * to whenContained's handler. (Same idea as Datadog browser-sdk `monitor()`.)
 *
 * @example
 * addEventListener('error', monitor((event) => report(event)));
 */
export const monitor =
  <A extends unknown[], R>(fn: (...args: A) => R) =>
  (...args: A): R | undefined => {
    try {
      const result = fn(...args);
      // An async callback fails later: contain that too, or it becomes the page's unhandledrejection.
      (result as { catch?: (onRejected: (error: unknown) => void) => unknown } | undefined)?.catch?.(contain);
      return result;
    } catch (error) {
      // Contained: the caller gets undefined.
      contain(error);
    }
  };
