import type { StoredErrorReport } from '../../core/records';
import type { FieldCount } from './errorReports';

/** An issue's status (docs/issues.md): what its owner decided, changed at ingest only by the rules of core/issueLifecycle.ts. */
export type IssueStatus = 'unresolved' | 'resolved' | 'ignored';

/**
 * An issue: one error group (fingerprint) of one site with its lifecycle. Times in ms since the
 * epoch; every "seen" is all-time, whatever range a read asks for.
 */
export interface IssueState {
  fingerprint: string;
  error_type: string;
  error_name?: string | undefined;
  error_message: string;
  first_seen: number;
  last_seen: number;
  /** The release of the first and of the latest report that named one, or null. */
  first_release: string | null;
  last_release: string | null;
  status: IssueStatus;
  /** A resolved issue occurred again (status is then `unresolved`); cleared by the owner's next change. */
  regressed: boolean;
  /** Resolved in this release: only an occurrence from a release that first arrived later regresses it. */
  resolved_in: string | null;
  /** Ignored until this many more occurrences (counted in `ignored_occurrences`), or null. */
  ignore_until_count: number | null;
  /** Occurrences since it was ignored (the count `ignore_until_count` is compared with). */
  ignored_occurrences: number;
  /** Ignored until this time (ms), or null. */
  ignore_until: number | null;
}

/** What the owner changes (`PATCH .../issues/{fingerprint}`); a status change resets what the others do not set. */
export interface IssueChange {
  status: IssueStatus;
  resolved_in?: string | null | undefined;
  ignore_until_count?: number | null | undefined;
  ignore_until?: number | null | undefined;
}

/** The reports an issue list or breakdown counts: a range, and filters on each report's fields. */
export interface IssueReportFilter {
  /** The range of `received_at`, both ends included. */
  since?: number | undefined;
  until?: number | undefined;
  /** Exact page URL. */
  page?: string | undefined;
  /** Parsed at ingest (core/clientOf.ts): "Chrome", "Windows", "mobile". */
  browser?: string | undefined;
  os?: string | undefined;
  device?: 'mobile' | 'tablet' | 'desktop' | undefined;
  release?: string | undefined;
  environment?: string | undefined;
  /** Reports of known bots are left out unless this is true. */
  includeBots?: boolean | undefined;
}

export type IssueSort = 'last_seen' | 'first_seen' | 'occurrences' | 'visitors';

export interface IssueListOptions extends IssueReportFilter {
  /** `all` for every status. */
  status: IssueStatus | 'all';
  /** Words of the message, name or type, case-insensitive. */
  q?: string | undefined;
  /** `error_type`. */
  type?: string | undefined;
  /** Groups of these error types are never listed (core/connectivityCheck.ts: the connectivity check's reports). */
  excludeTypes?: readonly string[] | undefined;
  sort: IssueSort;
  limit: number;
  /** The `next_cursor` of the previous page. */
  cursor?: string | undefined;
}

/** An issue with its counts over the filtered reports of the range. */
export interface IssueListRow extends IssueState {
  /** Reports stored, and occurrences (their counts added up). */
  reports: number;
  occurrences: number;
  /** Distinct (UTC day, visitor) pairs (docs/visitors.md). */
  visitors: number;
  /** Distinct `session_id`s (page views) the issue occurred on. */
  page_views: number;
}

/** A stored report of an issue as `.../events` lists it: with the client parsed at ingest. */
export interface IssueEvent extends StoredErrorReport {
  browser: string | null;
  os: string | null;
  device: 'mobile' | 'tablet' | 'desktop' | null;
}

export interface IssueStore {
  /** Issues with a report in the filtered range, sorted (ties by fingerprint), one page of `limit`. */
  list(siteKey: string, options: IssueListOptions): Promise<{ rows: IssueListRow[]; next_cursor: string | null }>;
  /**
   * One issue's state, or undefined when the site never had a report of that fingerprint: an issue
   * outlives its reports (docs/retention.md, "Issues outlive their reports"). `status` is as stored:
   * readers show core/issueLifecycle.ts `statusAt(state, now)`, which `list` filters by.
   */
  get(siteKey: string, fingerprint: string): Promise<IssueState | undefined>;
  /** Applies the owner's change (core/issueLifecycle.ts `changeIssue`); resolves to the new state, or undefined for an unknown issue. */
  update(siteKey: string, fingerprint: string, change: IssueChange): Promise<IssueState | undefined>;
  /** The issue's reports, newest first, `limit` per page. */
  events(siteKey: string, fingerprint: string, options: { cursor?: string | undefined; limit: number }): Promise<{ rows: IssueEvent[]; next_cursor: string | null }>;
  /** The issue's filtered reports counted by browser, OS, device, page and release: the `limit` most frequent of each ('' where absent). */
  tags(siteKey: string, fingerprint: string, options: IssueReportFilter & { limit: number }): Promise<Record<'browser' | 'os' | 'device' | 'page' | 'release', FieldCount[]>>;
  /** Occurrences per bucket of `bucketMs` (an hour or a day) from `since` to `until`, for these fingerprints (the list's trends). */
  trends(siteKey: string, fingerprints: readonly string[], options: IssueReportFilter & { since: number; until: number; bucketMs: number }): Promise<Map<string, number[]>>;
}
