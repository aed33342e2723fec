/** True only in sitebeacon/playwright's build of the beacon (rollup.config.mjs): the product's builds drop what it guards. */
declare const __SITEBEACON_FIXTURE__: boolean;

const noop = () => {};

/**
 * In sitebeacon/playwright's build, hands an error the beacon contained to the test, which fails
 * on the beacon's own errors (playwright/page/fixtureBeacon.ts listens at this symbol). Every other
 * build replaces the flag by `false`, and terser removes this and its uses: no bytes.
 */
const contained = (error: unknown) =>
  (globalThis as unknown as Record<symbol, ((error: unknown) => void) | undefined>)[Symbol.for('sitebeacon.contained')]?.(error);

/** `fn`, telling the test what it throws before monitor() contains it (sitebeacon/playwright's build only). */
const reporting =
  <A extends unknown[], R>(fn: (...args: A) => R) =>
  (...args: A): R => {
    try {
      return fn(...args);
    } catch (error) {
      contained(error);
      throw error;
    }
  };

/**
 * Wraps a callback the beacon installs (listener, timer, network callback) so that nothing it
 * throws, synchronously or as a rejected promise, ever reaches the host page.
 * (Same idea as Datadog browser-sdk `monitor()`.)
 *
 * @example
 * addEventListener('error', monitor((event) => report(event)));
 */
export const monitor =
  <A extends unknown[], R>(fn: (...args: A) => R) =>
  (...args: A): R | undefined => {
    try {
      // The product's builds call `fn` itself: the flag is false there and terser drops `reporting`
      // (a catch binding here would cost bytes in beacon.min.js).
      const result = (__SITEBEACON_FIXTURE__ ? reporting(fn) : fn)(...args);
      // An async callback fails later: swallow that too, or it becomes the page's unhandledrejection.
      (result as { catch?: (onRejected: (error: unknown) => void) => unknown } | undefined)?.catch?.(__SITEBEACON_FIXTURE__ ? contained : noop);
      return result;
    } catch {
      // Contained: the caller gets undefined (no `return` here, a few bytes less).
    }
  };
