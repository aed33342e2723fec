/** One page of a list, oldest first; `next_cursor` is null on the last page. */
export interface Page<T> {
  data: T[];
  next_cursor: string | null;
}

export interface ListOptions {
  /** Only records received (sessions: updated) at or after this time, in ms since the epoch. */
  since?: number | undefined;
  /** The `next_cursor` of the previous page. */
  cursor?: string | undefined;
  /** At most this many records (default 100). */
  limit?: number | undefined;
}

/** A time range of the summary: from `since` (ms), at most `limit` groups. */
export interface GroupOptions {
  since?: number | undefined;
  limit?: number | undefined;
  /** Error groups only: just the group of this fingerprint. */
  fingerprint?: string | undefined;
}

/**
 * Daily series (the dashboard's trends): one entry per UTC day that has data, oldest first; `day`
 * is that day's midnight in ms. The first day counts only what came at or after `since` (ms).
 */
export interface DailyOptions {
  since?: number | undefined;
}
