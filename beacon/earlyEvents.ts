import type { Capture } from './init';
import { EARLY_QUEUE } from './lib/earlyStub';

/** The early stub's queue: each event with the time it happened. */
type EarlyQueue = Array<[Event, number]>;

/**
 * Takes the events the early stub kept before the beacon loaded (lib/earlyStub.ts,
 * docs/early-capture.md) and hands each to the listeners the other captures added for its type,
 * as if it had just happened; the error reports they make carry the time it did happen. Listed
 * after the captures it feeds. From then on the stub keeps nothing: its queue's `push` does nothing.
 *
 * @example
 * init({ siteKey: 'KEY', capture: [errors(), csp(), earlyEvents()] });
 */
export const earlyEvents = (): Capture => (context) => {
  const early = (window as unknown as Record<string, EarlyQueue | undefined>)[EARLY_QUEUE];
  if (!early) return;
  early.push = () => 0;
  const report = context._report;
  for (const [event, time] of early.splice(0)) {
    // Captures call context._report when they report: for this event, with its own time.
    context._report = (kind, sent) => report(kind, kind == 'error' ? { ...sent, timestamp: time } : sent);
    for (const [type, listener] of context._listeners) if (type == event.type) listener(event);
  }
  context._report = report;
};
