/**
 * How many sign-ins may hash a password at once in this process. Each scrypt hash (core/passwords.ts)
 * keeps a core busy and takes 32 MiB, on libuv's thread pool: 4 threads by default for the whole
 * process, which file and DNS work wait for too. Unbounded, a burst of sign-ins queues hundreds of
 * hashes there and ingest waits behind them. Two leave two pool threads to file and DNS work and
 * the event loop a share of a 2-core machine, and still check passwords many times faster than
 * people sign in. Past it a sign-in is refused (429), not queued: a queue would only move the wait
 * to every sign-in after it.
 */
export const SIGN_IN_HASHES_AT_ONCE = 2;

/**
 * A bound on concurrent work that refuses rather than queues: `take()` answers a `release`
 * function, or undefined when `max` are taken. Releasing twice gives back one slot.
 *
 * @example
 * const release = slots.take();
 * if (!release) refuse();
 * try { await work(); } finally { release(); }
 */
export const createSlots = (max: number) => {
  let taken = 0;
  return {
    take(): (() => void) | undefined {
      if (taken >= max) return undefined;
      taken++;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        taken--;
      };
    },
    /** Slots taken now. */
    taken: () => taken,
  };
};

/**
 * The sign-in hashing slots of this process. Process-wide on purpose, unlike the rest of the
 * collector's state: the cores and the thread pool they protect are the process's, however many
 * collectors it runs (routes/session.ts).
 *
 * @example
 * const release = signInHashing.take(); // undefined: answer 429 now
 */
export const signInHashing = createSlots(SIGN_IN_HASHES_AT_ONCE);
