/**
 * An issue's lifecycle (docs/issues.md): the status its owner gives it, and what an occurrence does
 * to it at ingest. Plain data in, plain data out; both stores fold each stored report through
 * `occurIssue` in the transaction that stores it, and apply an owner's change with `changeIssue`.
 * Its types are the store's too (store/contract/issues.ts re-exports them).
 */

export type IssueStatus = 'unresolved' | 'resolved' | 'ignored';

/**
 * An issue: one error group (fingerprint) of one site with its lifecycle, as stored. Times in ms
 * since the epoch; every "seen" is all-time, whatever range a read asks for.
 */
export interface IssueLifecycleState {
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

/** One stored report of an issue, as the lifecycle sees it. */
export interface IssueOccurrence {
  fingerprint: string;
  error_type: string;
  error_name?: string | undefined;
  error_message: string;
  /** When it was received (ms). */
  at: number;
  /** The report's `count` (an occurrence repeated on one page): 1 when absent. */
  count?: number | undefined;
  release?: string | null | undefined;
}

/** What the owner changes (`PATCH .../issues/{fingerprint}`); a status change resets what the others do not set. */
export interface IssueLifecycleChange {
  status: IssueStatus;
  resolved_in?: string | null | undefined;
  ignore_until_count?: number | null | undefined;
  ignore_until?: number | null | undefined;
}

/**
 * A release's place in the site's order of first arrivals (a larger number arrived later), or
 * undefined for a release the site has never received.
 */
export type ReleaseOrder = (release: string) => number | undefined;

/** The fields of an unresolved issue with nothing pending. */
const UNRESOLVED = { status: 'unresolved', resolved_in: null, ignore_until_count: null, ignored_occurrences: 0, ignore_until: null } as const;

/**
 * Whether an occurrence from `release` regresses an issue resolved in `resolvedIn`: any does when
 * no release was named; otherwise only one from a release that first arrived on the site after
 * `resolvedIn` did. A `resolvedIn` not yet seen is ordered after every release seen so far, so
 * nothing regresses it until it has arrived and a later one comes; an occurrence without a release
 * never regresses a release-resolved issue.
 */
const regresses = (resolvedIn: string | null, release: string | null | undefined, releaseOrder: ReleaseOrder) => {
  if (resolvedIn === null) return true;
  if (!release) return false;
  const resolved = releaseOrder(resolvedIn);
  const occurred = releaseOrder(release);
  return resolved !== undefined && occurred !== undefined && occurred > resolved;
};

/**
 * The issue after one more occurrence: seen times and releases, the latest report's type, name
 * and message, and its status by the rules of docs/issues.md: a resolved issue regresses
 * (`unresolved`, `regressed: true`) when `regresses` says so; an ignored one is unresolved again
 * once `ignore_until_count` more occurrences arrived (a report's `count` counts) or for an
 * occurrence after `ignore_until`. `state` undefined: the issue's first report.
 *
 * @example
 * const order = (release: string) => ({ '1.1': 1, '1.2': 2, '1.3': 3 })[release];
 * occurIssue(resolvedIn12, { fingerprint, error_type: 'error', error_message: 'x', at: now, release: '1.3' }, order).status // 'unresolved', regressed: true
 */
export const occurIssue = (
  state: IssueLifecycleState | undefined,
  occurrence: IssueOccurrence,
  releaseOrder: ReleaseOrder,
): IssueLifecycleState => {
  const release = occurrence.release || null;
  const sample = { error_type: occurrence.error_type, error_name: occurrence.error_name, error_message: occurrence.error_message };
  if (!state) {
    return {
      fingerprint: occurrence.fingerprint, ...sample, first_seen: occurrence.at, last_seen: occurrence.at,
      first_release: release, last_release: release, regressed: false, ...UNRESOLVED,
    };
  }
  // Reports of one group commit arrive with one time, and retention never moves these: all-time.
  const latest = occurrence.at >= state.last_seen;
  const next: IssueLifecycleState = {
    ...state,
    ...(latest ? sample : {}),
    first_seen: Math.min(state.first_seen, occurrence.at),
    last_seen: Math.max(state.last_seen, occurrence.at),
    first_release: state.first_release ?? release,
    last_release: release && latest ? release : state.last_release,
  };
  if (next.status == 'resolved') {
    return regresses(next.resolved_in, release, releaseOrder) ? { ...next, ...UNRESOLVED, regressed: true } : next;
  }
  if (next.status == 'ignored') {
    const occurrences = next.ignored_occurrences + Math.max(1, occurrence.count ?? 1);
    if (next.ignore_until_count !== null && occurrences >= next.ignore_until_count) return { ...next, ...UNRESOLVED };
    if (next.ignore_until !== null && occurrence.at > next.ignore_until) return { ...next, ...UNRESOLVED };
    return { ...next, ignored_occurrences: occurrences };
  }
  return next;
};

/**
 * The issue after its owner's change: the new status with only the fields it uses (a release for
 * `resolved`, a count or a time for `ignored`), `regressed` cleared and the ignored occurrences
 * counted from zero.
 *
 * @example
 * changeIssue(state, { status: 'resolved', resolved_in: '1.2' }) // { ...state, status: 'resolved', resolved_in: '1.2', regressed: false, ignore_until: null, ... }
 */
export const changeIssue = (state: IssueLifecycleState, change: IssueLifecycleChange): IssueLifecycleState => ({
  ...state,
  ...UNRESOLVED,
  status: change.status,
  regressed: false,
  resolved_in: change.status == 'resolved' ? (change.resolved_in ?? null) : null,
  ignore_until_count: change.status == 'ignored' ? (change.ignore_until_count ?? null) : null,
  ignore_until: change.status == 'ignored' ? (change.ignore_until ?? null) : null,
});

/**
 * The status a reader shows at `now`: an issue ignored until a time that has passed is unresolved,
 * although no occurrence since has rewritten it (the store's list filters by the same rule).
 *
 * @example
 * statusAt({ ...state, status: 'ignored', ignore_until: Date.parse('2026-01-01') }, Date.parse('2026-02-01')) // 'unresolved'
 */
export const statusAt = (state: Pick<IssueLifecycleState, 'status' | 'ignore_until'>, now: number): IssueStatus =>
  state.status == 'ignored' && state.ignore_until !== null && now > state.ignore_until ? 'unresolved' : state.status;
