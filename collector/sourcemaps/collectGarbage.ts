import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let collect: (() => void) | undefined;

/**
 * A full garbage collection of this thread's heap, now: after a source map's text (tens of MB) has
 * been read, sent to the map thread or compiled, so that the memory it took goes back at once
 * instead of at V8's next collection, which a quiet collector may not run for minutes
 * (docs/source-maps.md, "The map thread"). It pauses this thread a few milliseconds.
 *
 * @example
 * await worker.run({ type: 'index', key, text });
 * collectGarbage();
 */
export const collectGarbage = () => {
  if (!collect) {
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as () => void;
  }
  collect();
};
