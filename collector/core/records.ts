/**
 * The records the collector keeps, as the read API, the export and every store show them. One
 * naming convention: field names are the wire format's, snake_case; times are ISO strings.
 * The wire format of what browsers send is in ../schemas/ (docs/wire-format.md).
 */

/** A site: the public key browsers report under, and the origins allowed to use it. */
export interface Site {
  site_key: string;
  name: string;
  allowed_origins: string[];
  created_at: string;
}

/** The installation's default site: the spec's unkeyed endpoints (section 4) store under it. */
export const DEFAULT_SITE_KEY = 'default';

/** The site `serve --demo` creates for its demo page, allowed from the collector's own origin. */
export const DEMO_SITE_KEY = 'demo';

/**
 * The site the dashboard's own CSP reports go to (`serve` keeps it, allowed from the public URL's
 * origin): a violation on a dashboard page is stored and shown like any other.
 */
export const DASHBOARD_SITE_KEY = 'dashboard';

/** The dashboard user `serve --demo` creates (`npm start` prints its password). */
export const DEMO_USER_EMAIL = 'demo@sitebeacon.example';

/** An error report as validated by the collector (docs/wire-format.md, "Error reports"). */
export interface ErrorReport {
  error_type: string;
  error_message: string;
  error_name?: string | undefined;
  stack?: string | undefined;
  source_url?: string | undefined;
  line?: number | undefined;
  column?: number | undefined;
  page_url?: string | undefined;
  timestamp?: number | undefined;
  session_id?: string | undefined;
  count?: number | undefined;
  /** The error's `cause` chain, outermost first, or an AggregateError's inner errors (docs/wire-format.md, "Error reports"). */
  causes?: ErrorCause[] | undefined;
  /** The site's release and environment the page runs (docs/issues.md), as the beacon was told; at most 200 characters each. */
  release?: string | undefined;
  environment?: string | undefined;
  /** Fields beyond the known ones, kept as sent (bounded). */
  extra?: Record<string, unknown> | undefined;
}

/** One cause of an error report, described as the report's own error is (beacon/lib/wire.ts WireErrorCause). */
export interface ErrorCause {
  error_name?: string | undefined;
  error_message: string;
  stack?: string | undefined;
  /** An inner error of an AggregateError, rather than a `cause`. */
  aggregate?: boolean | undefined;
}

/** An error report ready to store: with what core derives from it. */
export interface NewErrorReport extends ErrorReport {
  /** Groups reports of the same problem (core/fingerprint.ts). */
  fingerprint: string;
}

export interface StoredErrorReport extends NewErrorReport {
  id: number;
  site_key: string;
  received_at: string;
  user_agent?: string | undefined;
  /** The client as a day's hash (core/visitorHash.ts; docs/visitors.md). */
  visitor?: string | undefined;
}

/**
 * A CSP violation (or another Reporting API report) as normalised from any of the shapes
 * browsers send. Field names are the CSP2 ones in snake_case.
 */
export interface CspReport {
  /** `csp-violation`, or the Reporting API type (`deprecation`, `intervention`, `network-error`, ...). */
  report_type: string;
  document_uri?: string | undefined;
  referrer?: string | undefined;
  violated_directive?: string | undefined;
  effective_directive?: string | undefined;
  original_policy?: string | undefined;
  disposition?: string | undefined;
  blocked_uri?: string | undefined;
  source_file?: string | undefined;
  line_number?: number | undefined;
  column_number?: number | undefined;
  status_code?: number | undefined;
  script_sample?: string | undefined;
  /** Reporting API `age` in milliseconds. */
  age?: number | undefined;
  /** The body of a report that is not a CSP violation, as sent (bounded). */
  body?: Record<string, unknown> | undefined;
  extra?: Record<string, unknown> | undefined;
  /** How the report arrived (docs/csp-reports.md, "How a report arrived: its source"); absent for reports stored before sources were kept. */
  source?: CspSource | undefined;
}

/**
 * How a CSP report arrived (docs/csp-reports.md, "How a report arrived: its source"): `beacon` (our script's copy of the page's
 * `securitypolicyviolation` event), `report-uri` (the browser's own CSP2 report) or `report-to`
 * (the browser's own Reporting API report). core/cspCopies.ts holds the rules about them.
 */
export type CspSource = 'beacon' | 'report-uri' | 'report-to';

/** A CSP report ready to store. */
export interface NewCspReport extends CspReport {
  /** The blocked URI's host, or its keyword (`inline`, `eval`, `data`...): core/blockedHost.ts. */
  blocked_host: string;
  /** What copies of one violation share (core/cspCopies.ts); CSP violations only. */
  violation_key?: string | undefined;
}

export interface StoredCspReport extends NewCspReport {
  id: number;
  site_key: string;
  received_at: string;
  user_agent?: string | undefined;
  /** The client as a day's hash (core/visitorHash.ts; docs/visitors.md). */
  visitor?: string | undefined;
  /**
   * Every way this violation arrived, in order of arrival: the beacon's copy and the browser's
   * own report of one violation are stored once (core/cspCopies.ts). `source` is the one whose
   * fields the record holds.
   */
  sources?: CspSource[] | undefined;
}

/** One metric of a performance session: web-vitals' own fields (schemas/performanceSession.ts lists them). */
export interface MetricValue {
  value: number;
  rating?: string | undefined;
  id?: string | undefined;
  delta?: number | undefined;
  navigationType?: string | undefined;
  navigationId?: number | string | undefined;
  navigationInteractionId?: number | undefined;
  navigationStartTime?: number | undefined;
  /** The URL the metric is for, without fragment. */
  navigationURL?: string | undefined;
  /** The short, bounded part of web-vitals' attribution: LCP's `target` and `url`, INP's `interactionTarget`, CLS's `largestShiftTarget`. */
  attribution?: Record<string, string> | undefined;
}

/** A performance session (docs/wire-format.md, "Performance sessions"). */
export interface PerformanceSession {
  session_id: string;
  page_url?: string | undefined;
  navigation_type?: string | undefined;
  started_at?: number | undefined;
  /** The site's release and environment the page runs (docs/issues.md), as the beacon was told; at most 200 characters each. */
  release?: string | undefined;
  environment?: string | undefined;
  metrics: Record<string, MetricValue>;
  extra?: Record<string, unknown> | undefined;
}

export interface StoredPerformanceSession extends PerformanceSession {
  id: number;
  site_key: string;
  received_at: string;
  updated_at: string;
  user_agent?: string | undefined;
  /** The visitor of the session's first submission (docs/visitors.md). */
  visitor?: string | undefined;
  /** Its page URL's route (docs/vitals.md, "Routes"); absent on sessions stored before routes. */
  route?: string | undefined;
}

/** What the collector knows of the request a report came in. */
export interface ReceiveContext {
  /** Milliseconds since the epoch. */
  received_at: number;
  user_agent?: string | undefined;
  /** The client as a hash under the day's salt (visitorHash.ts; docs/visitors.md), never its address. */
  visitor?: string | undefined;
  /** The client parsed once per request (clientOf.ts): stored per error report and session, what issues filter by (docs/issues.md). */
  client?: ReceivedClient | undefined;
}

/** What the stores keep of a request's parsed client (clientOf.ts `Client`). */
export interface ReceivedClient {
  browser: string;
  os: string | null;
  device: 'mobile' | 'tablet' | 'desktop';
  bot: boolean;
}

/** An API key as stored: only its hash is kept; no `site_key` means installation-wide. */
export interface ApiKey {
  id: number;
  /** SHA-256 of the key, hex (core/keys.ts). */
  key_hash: string;
  name: string;
  site_key?: string | undefined;
  created_at: string;
}

/** A WordPress install, one per site URL. */
export interface WordPressInstall {
  site_key: string;
  site_url: string;
  name: string;
  plugin_version?: string;
  wordpress_version?: string;
  php_version?: string;
  status?: Record<string, unknown>;
  registered_at: string;
  last_check_in_at?: string;
}

/** Something a site's plugin is asked to do at its next check-in. */
export interface SiteAction {
  id: number;
  site_key: string;
  type: string;
  payload?: Record<string, unknown>;
  status: 'pending' | 'succeeded' | 'failed';
  message?: string;
  result?: Record<string, unknown>;
  created_at: string;
  completed_at?: string;
}

/** A CSP project: the policy a site works towards, in report-only or enforce mode. */
export interface CspProject {
  id: number;
  site_key: string;
  name: string;
  mode: 'report-only' | 'enforce';
  base_policy: string;
  created_at: string;
  updated_at: string;
}

/** A Linux server agent. Its token is stored as a hash. */
export interface ServerAgent {
  id: string;
  token_hash: string;
  hostname: string;
  os: string;
  arch: string;
  agent_version: string;
  site_key?: string;
  status?: Record<string, unknown>;
  registered_at: string;
  last_heartbeat_at?: string;
}

/**
 * A dashboard user (docs/access.md, "Dashboard sessions"). Only a scrypt
 * hash of the password is kept (core/passwords.ts). No `site_keys` means every site of the installation.
 */
export interface User {
  id: number;
  /** As core/users.ts `normalizeEmail` made it: trimmed, lower case. */
  email: string;
  password_hash: string;
  site_keys?: string[] | undefined;
  created_at: string;
}
