import type { MetricCountsWithDays } from '../../core/metricDays';
import type { PerformanceSession, ReceiveContext, StoredPerformanceSession } from '../../core/records';
import type { MetricCounts } from '../../core/summary';
import type { DailyOptions, ListOptions, Page } from './queryOptions';

/** A session's kind of device as parsed at ingest (core/clientOf.ts); a filter of the vitals' reads (docs/vitals.md, "By device"). */
export type SessionDevice = 'mobile' | 'tablet' | 'desktop';

/** One route's performance sessions and, per metric, its samples and the value at the p75 rank (core/vitals.ts p75Rank). */
export interface PageVitalsRow {
  /** The sessions' route (docs/vitals.md, "Routes"); a session stored before routes counts under its page URL; '' where none was sent. */
  route: string;
  /** One page URL of the route: the first in byte order. */
  page_url: string;
  sessions: number;
  metrics: Record<string, { samples: number; p75: number }>;
}

/**
 * A session as stored: with the route its caller worked out from its page URL and the site's
 * patterns (core/routes.ts routeOf); without one, the store works out the default route (store/sessionRoute.ts).
 */
export type RoutedSession = PerformanceSession & { route?: string | undefined };

export interface PerformanceSessionStore {
  /**
   * Creates the session, or updates it: each metric keeps its latest value, a page URL and its route
   * replace the stored ones. Rejects with UnknownSiteError when no site has `siteKey` (Store).
   */
  upsert(siteKey: string, session: RoutedSession, context: ReceiveContext): Promise<void>;
  /** Sessions in the order they were created; `since` applies to their last update. */
  list(siteKey: string, options?: ListOptions): Promise<Page<StoredPerformanceSession>>;
  /** One metric's samples since `since`: counted against `thresholds`, and the value at the p75 rank. */
  metricCounts(
    siteKey: string,
    options: { name: string; thresholds: readonly [good: number, poor: number]; since?: number | undefined },
  ): Promise<MetricCounts>;
  /** Sessions created (by `received_at`) per UTC day: the page views. */
  daily(siteKey: string, options?: DailyOptions): Promise<Array<{ day: number; sessions: number }>>;
  /** Sessions created at or after `since` per UTC hour of their creation (`hour`: its start, ms): a short range's page views. */
  hourly(siteKey: string, options: { since: number }): Promise<Array<{ hour: number; sessions: number }>>;
  /** One metric per UTC day of its last update: samples, and the value at the p75 rank (core/vitals.ts p75Rank). */
  metricDaily(siteKey: string, options: DailyOptions & { name: string }): Promise<Array<{ day: number; samples: number; p75: number }>>;
  /**
   * `metricCounts` and `metricDaily` of one metric and range in one read: what the Web Vitals view
   * shows (`GET /api/v1/sites/{site_key}/vitals`). Equal to both of them (core/metricDays.ts).
   * With `device`, only the samples of that device's sessions (a session stored without one is of none);
   * with `route`, of that route's (as `pages` groups them).
   */
  metricCountsWithDays(
    siteKey: string,
    options: {
      name: string;
      thresholds: readonly [good: number, poor: number];
      since?: number | undefined;
      device?: SessionDevice | undefined;
      route?: string | undefined;
    },
  ): Promise<MetricCountsWithDays>;
  /**
   * The `limit` routes with the most sessions updated since `since` (ties by the route's bytes), with
   * each metric's samples and p75 there; with `device`, of that device's sessions only.
   */
  pages(siteKey: string, options: { since?: number | undefined; limit: number; device?: SessionDevice | undefined }): Promise<PageVitalsRow[]>;
}
