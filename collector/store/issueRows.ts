import type { IssueLifecycleState, IssueStatus } from '../core/issueLifecycle';
import type { IssueState } from './contract/issues';

/** An `issues` row as both stores read it (SQLite's `regressed` is 0 or 1, PostgreSQL's int8 columns read as numbers). */
export interface IssueRow {
  fingerprint: string;
  error_type: string;
  error_name: string | null;
  error_message: string;
  first_seen: number;
  last_seen: number;
  first_release: string | null;
  last_release: string | null;
  status: string;
  regressed: number | boolean;
  resolved_in: string | null;
  ignore_until_count: number | null;
  ignored_occurrences: number;
  ignore_until: number | null;
}

/**
 * The issue's state from its row, or undefined for no row.
 *
 * @example
 * issueFromRow(selectIssue.get(siteKey, fingerprint)) // { fingerprint, status: 'unresolved', regressed: false, ... }
 */
export const issueFromRow = (row: IssueRow | undefined): IssueState | undefined =>
  row && {
    fingerprint: row.fingerprint,
    error_type: row.error_type,
    ...(row.error_name === null ? {} : { error_name: row.error_name }),
    error_message: row.error_message,
    first_seen: Number(row.first_seen),
    last_seen: Number(row.last_seen),
    first_release: row.first_release,
    last_release: row.last_release,
    status: row.status as IssueStatus,
    regressed: Boolean(row.regressed),
    resolved_in: row.resolved_in,
    ignore_until_count: row.ignore_until_count === null ? null : Number(row.ignore_until_count),
    ignored_occurrences: Number(row.ignored_occurrences),
    ignore_until: row.ignore_until === null ? null : Number(row.ignore_until),
  };

/** The issue's columns in the order of ISSUE_COLUMNS, as both stores bind them (`regressed` as 0 or 1). */
export const ISSUE_COLUMNS = [
  'site_key', 'fingerprint', 'error_type', 'error_name', 'error_message', 'first_seen', 'last_seen', 'first_release',
  'last_release', 'status', 'regressed', 'resolved_in', 'ignore_until_count', 'ignored_occurrences', 'ignore_until',
] as const;

/**
 * An issue's state as the values of ISSUE_COLUMNS.
 *
 * @example
 * upsertIssue.run(issueValues(siteKey, state));
 */
export const issueValues = (siteKey: string, state: IssueLifecycleState): Array<string | number | null> => [
  siteKey, state.fingerprint, state.error_type, state.error_name ?? null, state.error_message, state.first_seen, state.last_seen,
  state.first_release, state.last_release, state.status, state.regressed ? 1 : 0, state.resolved_in, state.ignore_until_count,
  state.ignored_occurrences, state.ignore_until,
];
