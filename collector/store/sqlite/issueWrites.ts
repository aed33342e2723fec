import type { Database } from 'better-sqlite3';
import type { IssueTrigger } from '../../core/alerts/outboxPlan';
import { issueAlertKind } from '../../core/alerts/rules';
import { occurIssue, type IssueLifecycleState } from '../../core/issueLifecycle';
import { createOutboxWriter } from './alertOutbox';
import { ERROR_ROW, type ErrorRow } from './errorRows';
import { ISSUE_COLUMNS, issueFromRow, issueValues, type IssueRow } from '../issueRows';
import { positionalInsertSql } from './rows';

/** The issues one group commit touched, by site and fingerprint, and the release order it looked up. */
export interface IssueGroup {
  /** `stored`: the row existed before this group (it is updated, not inserted). */
  states: Map<string, { siteKey: string; state: IssueLifecycleState; stored: boolean }>;
  releases: Map<string, number | undefined>;
  /** The folds that alert (a new issue, a regression), in order: the outbox's (alertOutbox.ts). */
  triggers: IssueTrigger[];
}

/**
 * Issues (docs/issues.md) kept at ingest, in the writer's transaction: each stored report is folded
 * into its issue by core/issueLifecycle.ts `occurIssue`, in memory over a group commit, and each
 * issue touched is written once at its end, as the per-day aggregates are (reportWrites.ts). A
 * report's release is recorded in `site_releases` the first time the site sends it: its rowid is
 * the order regressions compare. A fold that makes a new issue or a regression writes its alerts to
 * the outbox in the same transaction (docs/alerts.md, "The outbox").
 *
 * @example
 * const issues = createIssueWriter(db);
 * const group = issues.newGroup();
 * issues.occur(siteKey, row, receivedAt, group);
 * issues.flush(group);
 */
export const createIssueWriter = (db: Database) => {
  const selectIssue = db.prepare<[string, string], IssueRow>('SELECT * FROM issues WHERE site_key = ? AND fingerprint = ?');
  const addRelease = db.prepare('INSERT INTO site_releases (site_key, release, first_seen) VALUES (?, ?, ?) ON CONFLICT DO NOTHING');
  const selectRelease = db.prepare<[string, string], number>('SELECT id FROM site_releases WHERE site_key = ? AND release = ?').pluck();
  const insertIssue = db.prepare(positionalInsertSql('issues', ISSUE_COLUMNS));
  // An UPDATE in place: a REPLACE deletes the row and inserts it again, in the table and its indexes.
  const updateIssue = db.prepare(
    `UPDATE issues SET ${ISSUE_COLUMNS.slice(2).map((column) => `${column} = ?`).join(', ')} WHERE site_key = ? AND fingerprint = ?`,
  );
  const outbox = createOutboxWriter(db);

  const orderOf = (siteKey: string, group: IssueGroup) => (release: string) => {
    const key = `${siteKey}\n${release}`;
    if (!group.releases.has(key)) group.releases.set(key, selectRelease.get(siteKey, release));
    return group.releases.get(key);
  };

  return {
    newGroup: (): IssueGroup => ({ states: new Map(), releases: new Map(), triggers: [] }),
    /** Folds one stored report (an ErrorRow, received at `at`) into its issue. */
    occur(siteKey: string, row: ErrorRow, at: number, group: IssueGroup) {
      const fingerprint = row[ERROR_ROW.fingerprint] as string;
      const release = row[ERROR_ROW.release] as string | null;
      if (release !== null && orderOf(siteKey, group)(release) === undefined) {
        addRelease.run(siteKey, release, at);
        group.releases.delete(`${siteKey}\n${release}`);
      }
      const key = `${siteKey}\n${fingerprint}`;
      const folded = group.states.get(key);
      const stored = folded ? folded.state : issueFromRow(selectIssue.get(siteKey, fingerprint));
      const state = occurIssue(
        stored,
        {
          fingerprint,
          error_type: row[ERROR_ROW.type] as string,
          error_name: (row[ERROR_ROW.name] as string | null) ?? undefined,
          error_message: row[ERROR_ROW.message] as string,
          at,
          count: (row[ERROR_ROW.count] as number | null) ?? 1,
          release,
        },
        orderOf(siteKey, group),
      );
      group.states.set(key, { siteKey, state, stored: folded ? folded.stored : stored !== undefined });
      const kind = issueAlertKind(stored, state);
      if (kind) group.triggers.push({ siteKey, kind, state });
    },
    /** Writes each issue the group touched, and the alerts its folds gave; the outbox rows written. */
    flush(group: IssueGroup): number {
      for (const { siteKey, state, stored } of group.states.values()) {
        const values = issueValues(siteKey, state);
        if (stored) updateIssue.run(...values.slice(2), siteKey, state.fingerprint);
        else insertIssue.run(values);
      }
      return outbox.write(group.triggers, Date.now());
    },
  };
};
