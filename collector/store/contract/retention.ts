/** `serve --retention-days N` (README, "Retention"): what it asks of a store. */
export interface RetentionStore {
  /**
   * Deletes at most `limit` of the oldest error and CSP reports received, and performance sessions
   * last updated, before `before` (ms), in small transactions, taking each deleted report out of
   * the per-day aggregates in the same transaction: the summary always counts what remains.
   * Resolves to the number of rows deleted; fewer than `limit` means none older is left.
   */
  deleteBefore(before: number, options: { limit: number }): Promise<number>;
}
