/**
 * Keys seen in the last `windowMs`, in memory, bounded to `maxKeys` (past it the oldest key is
 * forgotten, so a flood cannot grow memory without end). `seen(key)` answers whether `key` was
 * seen within the window, and remembers it from now when it was not; `forget(key)` undoes that.
 * Per process: each collector has its own.
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
  return {
    seen(key: string): boolean {
      const time = now();
      const at = keys.get(key);
      if (at !== undefined && time - at <= windowMs) return true;
      // Map order is insertion order: re-inserting keeps the newest keys at the end.
      keys.delete(key);
      if (keys.size >= maxKeys) keys.delete(keys.keys().next().value!);
      keys.set(key, time);
      return false;
    },
    forget(key: string) {
      keys.delete(key);
    },
  };
};
