/**
 * The wire format, once: what the beacon sends and what the collector's schemas accept
 * (docs/wire-format.md; spec section 2 for the error report's required fields). The
 * beacon builds these types; the collector's schemas (collector/schemas/) are checked at compile
 * time to accept every value of them, and take their limits from here. Types only, and constants:
 * nothing here adds bytes to the beacon.
 */

/** Largest request body the collector reads; a larger one is answered 413. */
export const MAX_REQUEST_BODY_BYTES = 64 * 1024;

/** Most error reports in one request (an array); more is answered 400. */
export const MAX_ERROR_REPORTS_PER_REQUEST = 50;

/** One error report, `POST /api/error-reports/{site_key}` (one, or an array of them). */
export type WireErrorReport = {
  error_type: 'javascript_error' | 'unhandled_rejection' | 'resource_error' | 'manual';
  error_message: string;
  error_name?: string;
  stack?: string;
  source_url?: string;
  line?: number;
  column?: number;
  page_url: string;
  timestamp: number;
  session_id?: string;
  count?: number;
  /** "Script error." from a cross-origin script served without CORS: no detail exists. */
  cross_origin?: boolean;
  /**
   * The error's `cause` chain, outermost first, or an `AggregateError`'s inner errors (each with
   * `aggregate: true`); at most MAX_ERROR_CAUSES.
   */
  causes?: WireErrorCause[];
  /** The site's release the page runs (`init({ release })`, `data-release`); at most MAX_RELEASE_LENGTH characters. */
  release?: string;
  /** The site's environment the page runs in (`init({ environment })`, `data-environment`); at most MAX_RELEASE_LENGTH characters. */
  environment?: string;
};

/**
 * Longest `release` and `environment` the collector accepts (docs/issues.md); a longer one is
 * answered 400: a release cut short would be another release.
 */
export const MAX_RELEASE_LENGTH = 200;

/** Most causes one error report carries. */
export const MAX_ERROR_CAUSES = 5;

/** One cause of an error report, described as the report's own error is (bounded the same way). */
export type WireErrorCause = {
  error_name?: string;
  error_message: string;
  stack?: string;
  /** An inner error of an `AggregateError`, rather than a `cause`. */
  aggregate?: boolean;
};

/**
 * A CSP violation in the CSP2 shape, `POST /api/csp-reports/{site_key}`: the event's fields under
 * their kebab-case names, only those the browser filled in.
 */
export type WireCspReport = { 'csp-report': Record<string, string | number> };

/** One metric of a performance session: every field web-vitals gives but `name` (the key) and `entries`. */
export type WireMetric = {
  value: number;
  rating?: 'good' | 'needs-improvement' | 'poor';
  delta?: number;
  id?: string;
  navigationType?: string;
  navigationURL?: string;
  attribution?: Record<string, string>;
};

/** A performance session, `POST`/`PUT /api/performance-sessions/{site_key}`: one per page view. */
export type WirePerformanceSession = {
  session_id: string;
  page_url: string;
  navigation_type?: string;
  started_at: number;
  metrics: Record<string, WireMetric>;
  /** As an error report's (WireErrorReport). */
  release?: string;
  environment?: string;
};
