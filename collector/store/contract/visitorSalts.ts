/**
 * The salts visitors are hashed under (core/visitorHash.ts; docs/visitors.md): one random 32-byte
 * salt per UTC day, the same for every collector process on one database, deleted once its day is
 * over and the next one too.
 */
export interface VisitorSaltStore {
  /**
   * The salt of UTC day `day` (days since the epoch: core/visitorHash.ts visitorDay), created on
   * first use; of two processes creating it at once, both get the one stored first. Deletes the
   * salts of days before `day - 1`: the day before is kept for a report that arrives at midnight
   * from a process whose day has not yet turned.
   */
  salt(day: number): Promise<Uint8Array>;
  /**
   * Deletes the salts of days before `today - 1`, as `salt(today)` does but without creating one:
   * `serve` runs it on a timer (store/startSaltPruning.ts), so that an idle collector keeps no old
   * salt either. A DELETE by day, idempotent: several processes on one database may run it at once.
   * Resolves to the number of salts deleted.
   */
  prune(today: number): Promise<number>;
}
