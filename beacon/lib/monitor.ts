const noop = () => {};

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
      const result = fn(...args);
      // An async callback fails later: swallow that too, or it becomes the page's unhandledrejection.
      (result as { catch?: (onRejected: () => void) => unknown } | undefined)?.catch?.(noop);
      return result;
    } catch {
      return undefined;
    }
  };
