import { seriesStart } from '../core/dailySeries';

/** A view's range: from `since` (ms) to `now`, and `since` as the answer writes it. */
export interface Range {
  since: number;
  now: number;
  /** `since` as an ISO time, as every view answers it. */
  iso: string;
}

const DAY = 86_400_000;

/**
 * The range of a view: from the query's `since`, else `defaultDays` before `now`; a view of days
 * (a series) never longer than the longest series (core/dailySeries.ts `MAX_SERIES_DAYS`), a
 * table with `bounded: false` from whenever it is asked. Every view takes its range here.
 *
 * @example
 * rangeOf(undefined, Date.UTC(2026, 0, 8), 7).iso // '2026-01-01T00:00:00.000Z'
 */
export const rangeOf = (since: number | undefined, now: number, defaultDays: number, { bounded = true }: { bounded?: boolean } = {}): Range => {
  const start = bounded ? seriesStart(since, now, defaultDays) : (since ?? now - defaultDays * DAY);
  return { since: start, now, iso: new Date(start).toISOString() };
};
