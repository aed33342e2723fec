/** The read API's answers as the dashboard reads them (GET /api/openapi.json documents them). */

export interface Site {
  site_key: string;
  name: string;
  allowed_origins: string[];
  created_at: string;
}

export interface DailyPoint {
  day: string;
  errors: number;
  error_occurrences: number;
  csp: number;
  page_views: number;
  p75: Record<string, number | null>;
}

export interface ErrorGroup {
  fingerprint: string;
  error_type: string;
  error_name?: string;
  error_message: string;
  reports: number;
  count: number;
  sessions: number;
  first_seen: string;
  last_seen: string;
  daily?: Array<{ day: string; count: number }>;
}

export interface MetricSummary {
  samples: number;
  p75: number | null;
  good: number;
  needs_improvement: number;
  poor: number;
}

export interface CspGroup {
  directive: string;
  blocked_host: string;
  reports: number;
}

/** One Web Vital of `GET /api/v1/sites/{site_key}/vitals`: the summary's figures and the p75 per day. */
export interface Vital extends MetricSummary {
  rating: string | null;
  daily: Array<{ day: string; samples: number; p75: number | null }>;
}

export interface PageVitals {
  page_url: string;
  sessions: number;
  metrics: Record<string, { samples: number; p75: number; rating: string } | null>;
}

export interface StoredError {
  error_type: string;
  error_message: string;
  error_name?: string;
  stack?: string;
  page_url?: string;
  source_url?: string;
  line?: number;
  column?: number;
  user_agent?: string;
  received_at: string;
  /** The error's `cause` chain, outermost first, or an AggregateError's inner errors; absent when none. */
  causes?: ErrorCause[];
}

/** One cause of a stored error report (the read API's `latest.causes`). */
export interface ErrorCause {
  error_name?: string;
  error_message: string;
  stack?: string;
  /** An inner error of an AggregateError, rather than a `cause`. */
  aggregate?: boolean;
}

export interface ErrorGroupDetail {
  group: ErrorGroup;
  latest: StoredError | null;
  daily: Array<{ day: string; reports: number; count: number }>;
  pages: Array<{ page_url: string; reports: number }>;
  browsers: Array<{ browser: string; reports: number }>;
}

export interface Setup {
  site_key: string;
  name: string;
  allowed_origins: string[];
  api_base: string;
  ingest_url: string;
  app_url: string;
  /** The main host's API base (spec section 1: the legacy API base). */
  legacy_api_base: string;
  beacon_url: string;
  /** The early-capture stub, then the script tag (docs/early-capture.md). */
  snippet: string;
  /** The script tag alone: captures from when beacon.js has run. */
  snippet_without_stub: string;
  /** The sources a page's CSP must allow; `script-src` has the stub's `'sha256-…'`. */
  csp_sources: Record<string, string[]>;
  wordpress: { site_url: string; name: string; plugin_version?: string; last_check_in_at?: string; registered_at: string } | null;
  agents: Array<{ id: string; hostname: string; os: string; arch: string; agent_version: string; last_heartbeat_at?: string; registered_at: string }>;
  csp_projects: Array<{ id: number; name: string; mode: string; updated_at: string }>;
  last_connectivity_check: { at: string; message: string; reports: number } | null;
}
