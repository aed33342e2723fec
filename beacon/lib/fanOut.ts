/**
 * One registration, many listeners: `register` runs once, on the first subscription, and what it
 * dispatches reaches every current subscriber. web-vitals must be registered once per page (its
 * README: "only call onX once per page load"), however many `vitals()` captures run.
 *
 * @example
 * const subscribe = fanOut((dispatch) => onLCP(dispatch));
 * const unsubscribe = subscribe((metric) => console.log(metric.value));
 */
export const fanOut = <T>(register: (dispatch: (value: T) => void) => void) => {
  let listeners: Set<(value: T) => void> | undefined;
  return (listener: (value: T) => void) => {
    if (!listeners) {
      const registered = (listeners = new Set());
      register((value) => registered.forEach((each) => each(value)));
    }
    listeners.add(listener);
    return () => void listeners!.delete(listener);
  };
};
