/**
 * Keys seen in the last `windowMs`, in memory: expired keys are dropped as time passes, and at most
 * `maxKeys` are kept (past it the oldest key is forgotten, so a flood cannot grow memory without end). `seen(key)` answers whether `key` was
 * seen within the window, and remembers it from now when it was not; `forget(key)` undoes that.
 * Per process: each collector has its own.
 *
 * The keys are also queued in the order they were remembered, and the oldest are let go from
 * that queue's head: a Map is never iterated from its start, which after many deletions walks
 * every deleted entry first (at thousands of new keys a second, that walk took much of the HTTP
 * thread's time: docs/performance.md, "Memory").
 *
 * @example
 * const recent = createRecentKeys({ windowMs: 3000 });
 * recent.seen('a'); // false
 * recent.seen('a'); // true (within 3 s)
 */
export const createRecentKeys = ({
  windowMs,
  maxKeys = 50_000,
  now = () => performance.now(),
}: {
  windowMs: number;
  maxKeys?: number;
  now?: () => number;
}) => {
  const keys = new Map<string, number>();
  // The queue: the key and time of each sighting remembered, oldest at `head`. A key forgotten or
  // remembered again since keeps its old entry here, which is skipped (its time is not the Map's).
  let queuedKeys: string[] = [];
  let queuedTimes: number[] = [];
  let head = 0;
  /** Lets go of the oldest queued sighting: its key too, unless that key was remembered since. */
  const dropOldest = () => {
    const key = queuedKeys[head]!;
    if (keys.get(key) === queuedTimes[head]) keys.delete(key);
    head += 1;
    // The queue's consumed part is cut off once it is half of it: each entry is moved once at most.
    if (head >= 1024 && head * 2 >= queuedKeys.length) {
      queuedKeys = queuedKeys.slice(head);
      queuedTimes = queuedTimes.slice(head);
      head = 0;
    }
  };
  return {
    seen(key: string): boolean {
      const time = now();
      while (head < queuedKeys.length && time - queuedTimes[head]! > windowMs) dropOldest();
      if (keys.has(key)) return true;
      while (keys.size >= maxKeys) dropOldest();
      keys.set(key, time);
      queuedKeys.push(key);
      queuedTimes.push(time);
      return false;
    },
    forget(key: string) {
      keys.delete(key);
    },
    /** How many keys are held. */
    size: () => keys.size,
  };
};
