import type { NewErrorReport, ReceiveContext, StoredErrorReport } from '../../core/records';
import type { CountedLoad } from '../../core/countedOnce';
import type { Violation } from '../../core/cspExplains';
import type { ErrorGroupRow } from '../../core/summary';
import type { DailyOptions, GroupOptions, ListOptions, Page } from './queryOptions';

/** Error reports of one UTC day: reports stored, and occurrences (their `count`s added up). */
export interface DailyErrors {
  day: number;
  reports: number;
  count: number;
}

/** Error reports of one UTC hour (`hour`: its start, ms), as DailyErrors. */
export interface HourlyErrors {
  hour: number;
  reports: number;
  count: number;
}

/** Distinct values of one report field with how many reports have each, most first. */
export interface FieldCount {
  /** The value; '' where the field is absent. */
  value: string;
  reports: number;
}

export interface ErrorReportStore {
  /** Stores the reports; resolves to how many. Rejects with UnknownSiteError when no site has `siteKey` (Store). */
  insert(siteKey: string, reports: NewErrorReport[], context: ReceiveContext): Promise<number>;
  list(siteKey: string, options?: ListOptions): Promise<Page<StoredErrorReport>>;
  /**
   * Reports by fingerprint, most occurrences first; groups of the `excludeTypes` error types left
   * out, and with `types` only groups of those error types.
   */
  groups(
    siteKey: string,
    options?: GroupOptions & { excludeTypes?: readonly string[] | undefined; types?: readonly string[] | undefined },
  ): Promise<ErrorGroupRow[]>;
  /**
   * Reports and occurrences per UTC day, of every group or of one fingerprint; with `withoutBots`,
   * known bots' reports left out (docs/issues.md, "Bots"), else every report.
   */
  daily(siteKey: string, options?: DailyOptions & { fingerprint?: string | undefined; withoutBots?: boolean | undefined }): Promise<DailyErrors[]>;
  /**
   * Reports and occurrences per UTC hour (`hour`: its start, ms) received at or after `since`, of
   * every group or of one fingerprint: the site page's 24 hours (docs/dashboard.md, "Pages and
   * ranges"). Read from the reports themselves: the caller asks for a short range. `withoutBots` as `daily`.
   */
  hourly(siteKey: string, options: { since: number; fingerprint?: string | undefined; withoutBots?: boolean | undefined }): Promise<HourlyErrors[]>;
  /**
   * What a total counts once (docs/issues.md, "A resource a CSP blocked"): the `resource_error`
   * reports received at or after `since` with a CSP violation of the site within ten minutes
   * either way (COPY_WINDOW_MS, core/cspCopies.ts), and the violations received at or after
   * `since` less ten minutes with such a report near them; at most `limit` of each, oldest
   * first. core/countedOnce.ts decides which of the loads a violation explains.
   */
  blockedLoads(siteKey: string, options: { since: number; limit: number }): Promise<{ loads: CountedLoad[]; violations: Violation[] }>;
  /** How many distinct `session_id`s reported this fingerprint since `since` (reports without one are not counted). */
  sessions(siteKey: string, options: { fingerprint: string; since?: number | undefined }): Promise<number>;
  /**
   * How many visitors reported this fingerprint since `since`: distinct (UTC day, `visitor`) pairs,
   * so one client on two days counts twice (docs/visitors.md); reports without one are not counted.
   */
  visitors(siteKey: string, options: { fingerprint: string; since?: number | undefined }): Promise<number>;
  /** The group's most recently received report (its latest stack; of reports received at one time, the last stored), or undefined. */
  latest(siteKey: string, fingerprint: string): Promise<StoredErrorReport | undefined>;
  /** The group's reports since `since` counted by `page_url` or `user_agent`: the `limit` most frequent values. */
  breakdown(
    siteKey: string,
    options: { fingerprint: string; field: 'page_url' | 'user_agent'; since?: number | undefined; limit: number },
  ): Promise<FieldCount[]>;
}
