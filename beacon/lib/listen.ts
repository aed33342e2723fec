/**
 * Adds a window listener and returns what removes it: every capture's `stop` is a list of these.
 *
 * @example
 * const unlisten = listen('pagehide', monitor(onPageHide));
 */
export const listen = <E extends Event>(type: string, listener: (event: E) => unknown, capture?: boolean) => {
  addEventListener(type, listener as EventListener, capture);
  return () => removeEventListener(type, listener as EventListener, capture);
};
