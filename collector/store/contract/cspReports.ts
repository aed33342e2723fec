import type { NewCspReport, ReceiveContext, StoredCspReport } from '../../core/records';
import type { CspGroup } from '../../core/summary';
import type { DailyOptions, GroupOptions, ListOptions, Page } from './queryOptions';

/** One stored violation's directive and blocked URI, with how often: what the CSP suggestion reads. */
export interface CspEvidence {
  directive: string;
  blocked_uri: string;
  document_uri: string;
  reports: number;
}

export interface CspReportStore {
  /**
   * Stores the reports, each violation once (README, "CSP reports": one violation, one count). A
   * report with a `violation_key` and a `source` is first matched against the site's stored reports with the same `violation_key`
   * received within COPY_WINDOW_MS of `context.received_at` (either way), oldest first, with
   * `copyToMergeInto` (core/cspCopies.ts). When that names one, the report is merged into it, not
   * stored anew: its source is appended to the stored `sources`, and when `replacesStoredFields`
   * (the browser's own report replacing the beacon's copy), the stored report's fields become the
   * new report's (`id`, `site_key`, `received_at` and `user_agent` stay). A merged report adds
   * nothing to `groups` or `evidence`. Otherwise the report is stored with `sources: [source]`
   * (no `sources` without a `source`). Reports of one call are matched in order, each seeing the ones
   * before it. Resolves to how many reports were stored anew (the rest were merged). Rejects with
   * UnknownSiteError when no site has `siteKey` (Store).
   */
  insert(siteKey: string, reports: NewCspReport[], context: ReceiveContext): Promise<number>;
  list(siteKey: string, options?: ListOptions): Promise<Page<StoredCspReport>>;
  /** Violations by effective directive and blocked host, most reports first. */
  groups(siteKey: string, options?: GroupOptions): Promise<CspGroup[]>;
  /**
   * The policy suggestion's evidence: violations grouped by directive and blocked host (the URL's
   * host and port, or the keyword), one sample blocked URI and document URI each, the `limit`
   * largest groups by report count (a bounded read, whatever the number of reports stored).
   */
  evidence(siteKey: string, options: { limit: number }): Promise<CspEvidence[]>;
  /** CSP violations (report_type `csp-violation` with a directive, as `groups` counts) per UTC day. */
  daily(siteKey: string, options?: DailyOptions): Promise<Array<{ day: number; reports: number }>>;
  /** The same violations per UTC hour (`hour`: its start, ms) received at or after `since`: a short range's (ErrorReportStore `hourly`). */
  hourly(siteKey: string, options: { since: number }): Promise<Array<{ hour: number; reports: number }>>;
}
