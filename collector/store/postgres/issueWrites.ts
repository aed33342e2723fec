import type { NewErrorReport } from '../../core/records';
import type { IssueTrigger } from '../../core/alerts/outboxPlan';
import { issueAlertKind } from '../../core/alerts/rules';
import { occurIssue, type IssueLifecycleState, type IssueOccurrence } from '../../core/issueLifecycle';
import { writeOutbox } from './alertOutbox';
import { ISSUE_COLUMNS, issueFromRow, issueValues, type IssueRow } from '../issueRows';
import type { Client } from './pool';
import { columns, param } from './rows';

/** A batch's stored error reports as occurrences of their issues, by site, in the order they were added. */
export type IssueOccurrences = Array<[siteKey: string, occurrence: IssueOccurrence]>;

/** An error report as its issue's occurrence (core/issueLifecycle.ts), its texts as stored. */
export const occurrenceOf = (report: NewErrorReport, at: number): IssueOccurrence => ({
  fingerprint: report.fingerprint,
  error_type: param(report.error_type) as string,
  error_name: (param(report.error_name) as string | null) ?? undefined,
  error_message: param(report.error_message) as string,
  at,
  count: report.count ?? 1,
  release: (param(report.release) as string | null) ?? null,
});

const byKey = <T>(entries: Iterable<[string, T]>) => [...entries].sort(([a], [b]) => (a < b ? -1 : 1));

const ADD_RELEASES = `INSERT INTO site_releases (site_key, release, first_seen)
  SELECT * FROM unnest($1::text[], $2::text[], $3::int8[]) ON CONFLICT DO NOTHING`;
const RELEASES = `SELECT r.site_key, r.release, r.id FROM site_releases r
  JOIN unnest($1::text[], $2::text[]) AS wanted (site_key, release) ON r.site_key = wanted.site_key AND r.release = wanted.release`;
// Every issue of the batch locked, in key order (two processes lock in the same order), a new one
// as a row of nulls that this transaction fills before it commits: its key is then taken.
const LOCK_ISSUES = `INSERT INTO issues (site_key, fingerprint) SELECT * FROM unnest($1::text[], $2::text[])
  ON CONFLICT (site_key, fingerprint) DO UPDATE SET site_key = excluded.site_key
  RETURNING *`;
const UPDATE_ISSUES = `UPDATE issues SET ${ISSUE_COLUMNS.slice(2).map((column) => `${column} = v.${column}`).join(', ')}
  FROM unnest(${['text', 'text', 'text', 'text', 'text', 'int8', 'int8', 'text', 'text', 'text', 'int2', 'text', 'int8', 'int8', 'int8']
    .map((type, index) => `$${index + 1}::${type}[]`).join(', ')}) AS v (${ISSUE_COLUMNS.join(', ')})
  WHERE issues.site_key = v.site_key AND issues.fingerprint = v.fingerprint`;

/**
 * Folds a batch's error reports into their issues (docs/issues.md) in the transaction that stores
 * them, as sqlite/issueWrites.ts does in the writer thread: each release first seen is recorded in
 * `site_releases` (its identity is the order regressions compare), every issue touched is locked,
 * each report applied by core/issueLifecycle.ts `occurIssue`, and each issue written once. A fold
 * that makes a new issue or a regression writes its alerts to the outbox in the same transaction
 * (alertOutbox.ts; docs/alerts.md, "The outbox").
 *
 * @example
 * await writeIssues(client, [[siteKey, occurrenceOf(report, receivedAt)]]);
 */
export const writeIssues = async (client: Client, occurrences: IssueOccurrences) => {
  const releases = new Map<string, [string, string, number]>();
  for (const [siteKey, { release, at }] of occurrences) {
    if (release && !releases.has(`${siteKey}\n${release}`)) releases.set(`${siteKey}\n${release}`, [siteKey, release, at]);
  }
  if (releases.size) await client.query({ name: 'add_site_releases', text: ADD_RELEASES, values: columns(byKey(releases).map(([, row]) => row), 3) });

  const keys = new Map(occurrences.map(([siteKey, { fingerprint }]) => [`${siteKey}\n${fingerprint}`, [siteKey, fingerprint]]));
  const { rows } = await client.query<IssueRow & { site_key: string }>({
    name: 'lock_issues',
    text: LOCK_ISSUES,
    values: columns(byKey(keys).map(([, key]) => key), 2),
  });
  const states = new Map<string, { siteKey: string; state: IssueLifecycleState | undefined }>(
    rows.map((row) => [`${row.site_key}\n${row.fingerprint}`, { siteKey: row.site_key, state: row.first_seen === null ? undefined : issueFromRow(row) }]),
  );

  // The order of every release an issue may compare: the reports' and the releases issues were resolved in.
  const wanted = new Map([...releases].map(([key, [siteKey, release]]) => [key, [siteKey, release]]));
  for (const { siteKey, state } of states.values()) {
    if (state?.resolved_in) wanted.set(`${siteKey}\n${state.resolved_in}`, [siteKey, state.resolved_in]);
  }
  const order = new Map<string, number>();
  if (wanted.size) {
    const found = await client.query<{ site_key: string; release: string; id: number }>({
      name: 'site_releases', text: RELEASES, values: columns([...wanted.values()], 2),
    });
    for (const row of found.rows) order.set(`${row.site_key}\n${row.release}`, Number(row.id));
  }

  const triggers: IssueTrigger[] = [];
  for (const [siteKey, occurrence] of occurrences) {
    const entry = states.get(`${siteKey}\n${occurrence.fingerprint}`)!;
    const before = entry.state;
    entry.state = occurIssue(before, occurrence, (release) => order.get(`${siteKey}\n${release}`));
    const kind = issueAlertKind(before, entry.state);
    if (kind) triggers.push({ siteKey, kind, state: entry.state });
  }
  const values = byKey(states).map(([, { siteKey, state }]) => issueValues(siteKey, state!).map(param));
  await client.query({ name: 'update_issues', text: UPDATE_ISSUES, values: columns(values, ISSUE_COLUMNS.length) });
  await writeOutbox(client, triggers, Date.now());
};
