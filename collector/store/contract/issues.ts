import type { IssueLifecycleChange as IssueChange, IssueLifecycleState as IssueState, IssueStatus } from '../../core/issueLifecycle';
import type { StoredErrorReport } from '../../core/records';
import type { FieldCount } from './errorReports';

// The issue's state and the owner's change are the lifecycle's (core/issueLifecycle.ts), stored as they are.
export type { IssueChange, IssueState, IssueStatus };

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

/** What `botReports` counts: the list's filters but its order and page, or one issue's with `fingerprint`. */
export type IssueBotReportOptions = Omit<IssueListOptions, 'sort' | 'limit' | 'cursor' | 'includeBots'> & { fingerprint?: string | undefined };

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
  /**
   * How many reports of known bots the read would have counted with bots included: the range's
   * reports matching the report filters, of the issues the status, words, type and excluded types
   * keep (or of `fingerprint`'s issue). What the dashboard says was not counted (docs/issues.md, "Bots").
   */
  botReports(siteKey: string, options: IssueBotReportOptions): Promise<number>;
  /** Occurrences per bucket of `bucketMs` (an hour or a day) from `since` to `until`, for these fingerprints (the list's trends). */
  trends(siteKey: string, fingerprints: readonly string[], options: IssueReportFilter & { since: number; until: number; bucketMs: number }): Promise<Map<string, number[]>>;
}
